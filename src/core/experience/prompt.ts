import type { Demonstration } from "../replay/buffer";
import type { Step } from "../types";
import type { ExperienceInput, ExperienceSettings } from "./types";

/** Bumped whenever the wording or layout changes: stored with every synthetic step and in the SFT export. */
export const EXPERIENCE_PROMPT_VERSION = "dreamgym-exp-v2";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Long pages are cut so that a prompt with k demonstrations stays within a small model's context. */
export const PROMPT_LIMITS = {
  stateChars: 2_500,
  demonstrationStateChars: 900,
  historyActionChars: 200,
} as const;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} …[cut ${text.length - max} chars]`;
}

const RULES = [
  "You are the experience model of a reinforcement-learning environment. You simulate the environment: given a",
  "task, the recent history, the current state and the agent's action, you predict what the environment does next.",
  "Rules:",
  "- Ground the prediction in the demonstrations: real transitions retrieved for similar states and actions. Copy",
  "  their format exactly; change only what the current state and action require. Never invent page elements,",
  "  objects or values that neither the current state nor the demonstrations support.",
  "- If the action is not possible in the current state (not among the admissible actions, or refers to something",
  "  that is not there), the state stays exactly the same, reward is 0, done is false and valid is false; say so.",
  "- Rewards are outcome rewards: 1 when the task is accomplished at the final step, else 0 (a partial score in",
  "  [0, 1] only where the demonstrations show partial scores). done is true when the episode ends.",
].join("\n");

const REPLY_WITH_REASONING = [
  "Reply with one JSON object and nothing else:",
  '{"reasoning": "<think step by step: what the action does here, which demonstrations support it, why the',
  'reward>", "next_state": "<the full next state>", "reward": <number>, "done": <bool>, "success": <bool>,',
  '"valid": <bool>}',
].join("\n");

const REPLY_WITHOUT_REASONING = [
  "Reply with one JSON object and nothing else; leave reasoning empty:",
  '{"reasoning": "", "next_state": "<the full next state>", "reward": <number>, "done": <bool>, "success": <bool>,',
  '"valid": <bool>}',
].join("\n");

export function systemPrompt(settings: Pick<ExperienceSettings, "reasoning">): string {
  return `${RULES}\n\n${settings.reasoning ? REPLY_WITH_REASONING : REPLY_WITHOUT_REASONING}`;
}

function formatHistory(history: Step[], window: number): string {
  if (window <= 0 || history.length === 0) return "";
  const shown = history.slice(-window);
  const skipped = history.length - shown.length;
  const lines = shown.map(
    (s, i) =>
      `${skipped + i + 1}. action: ${cut(s.action, PROMPT_LIMITS.historyActionChars)} -> reward ${s.reward}${s.valid ? "" : " (invalid)"}`,
  );
  return `## History (${history.length} step${history.length === 1 ? "" : "s"} so far${skipped ? `, last ${shown.length} shown` : ""})\n${lines.join("\n")}\n\n`;
}

function formatDemonstrations(demonstrations: Demonstration[]): string {
  if (demonstrations.length === 0) return "";
  const blocks = demonstrations.map((d, i) =>
    [
      `### Demonstration ${i + 1} (similarity ${d.score.toFixed(2)}, ${d.source})`,
      `state: ${cut(d.state.text, PROMPT_LIMITS.demonstrationStateChars)}`,
      `action: ${d.action}`,
      `next_state: ${cut(d.next.text, PROMPT_LIMITS.demonstrationStateChars)}`,
      `reward: ${d.reward}, done: ${d.done}, success: ${d.success}, valid: ${d.valid}`,
    ].join("\n"),
  );
  return `## Demonstrations (similar transitions from the replay buffer)\n${blocks.join("\n\n")}\n\n`;
}

/**
 * The prompt of one prediction, what is shared first so that an endpoint with prefix caching (vLLM, SGLang, the
 * OpenAI API) reuses it: the instructions (every request), the task (every step of a group's rollouts), the k
 * demonstrations with their outcomes (the same for every rollout of the group that reaches this state and
 * action), then what is this episode's own: a bounded window of history, the current state and the action (last,
 * nearest to where the model writes).
 */
export function buildExperiencePrompt(input: ExperienceInput, settings: ExperienceSettings): ChatMessage[] {
  const actions = input.state.actions?.length
    ? `\nadmissible actions: ${input.state.actions.join(" | ")}`
    : "";
  const user = [
    `## Task\n${input.task.instruction}\n\n`,
    formatDemonstrations(input.demonstrations.slice(0, Math.max(0, settings.k))),
    formatHistory(input.history, settings.historyWindow),
    `## Current state\n${cut(input.state.text, PROMPT_LIMITS.stateChars)}${actions}\n\n`,
    `## Action\n${input.action}`,
  ].join("");
  return [
    { role: "system", content: systemPrompt(settings) },
    { role: "user", content: user },
  ];
}

/** The one repair attempt: the model sees its own reply and what was wrong with it. */
export function repairMessages(original: ChatMessage[], reply: string, error: string): ChatMessage[] {
  return [
    ...original,
    { role: "assistant", content: reply },
    {
      role: "user",
      content: `Your reply could not be used: ${error}. Reply again with only the complete JSON object, with the fields reasoning, next_state, reward, done, success and valid.`,
    },
  ];
}
