import { z } from "zod";
import type { ChatMessage, LlmClient } from "../llm";
import type { Observation, Policy, PolicyDecision, Step, Task } from "../types";
import type { CandidateSource } from "./linearPolicy";

/**
 * An LLM agent behind the `Policy` contract, for rollouts and evaluation against an endpoint (training an LLM
 * policy happens in an external trainer). ReAct-style: the model thinks, then names one action. The real domains
 * list their candidate actions, so the reply must pick one of them; a shop search may also be written freely,
 * as WebShop agents do.
 */
export interface OpenAIPolicyOptions {
  /** Earlier steps shown in the prompt; older ones are summarised by their count. */
  historyWindow?: number;
  temperature?: number;
  maxTokens?: number;
}

export interface OpenAIPolicyStats {
  decisions: number;
  /** Replies that stayed unusable after the repair: the decision fell back to the first candidate. */
  fallbacks: number;
}

const SYSTEM = [
  "You are an agent acting in a text environment to accomplish a task. At each step you see the task, the",
  "recent history of your actions and their outcomes, the current observation and the actions you can take.",
  "Think step by step about what the observation tells you and what brings you closer to the task, then choose",
  "exactly one action.",
  "- Choose an action from the list, written exactly as listed.",
  "- Where search[...] is possible you may write your own query: search[<keywords>].",
  "- Do not repeat an action that did nothing; do not end the episode before the task is done.",
  'Reply with one JSON object and nothing else: {"thought": "<your reasoning>", "action": "<one action>"}',
].join("\n");

const REPLY_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["thought", "action"],
  properties: {
    thought: { type: "string", description: "Reasoning about the observation and the next step" },
    action: { type: "string", description: "Exactly one of the listed actions" },
  },
};

const SEARCH = /^search\[.+\]$/i;

function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The model's action as one of the candidates (case and spacing forgiven), or undefined when it is none. */
export function matchCandidate(action: string, candidates: readonly string[]): string | undefined {
  const wanted = squash(action).toLowerCase();
  const exact = candidates.find((c) => squash(c).toLowerCase() === wanted);
  if (exact) return exact;
  // A free search is allowed wherever the state offers a search.
  if (SEARCH.test(wanted) && candidates.some((c) => SEARCH.test(c))) return squash(action);
  return undefined;
}

function replySchema(candidates: readonly string[]) {
  return z.object({
    thought: z.string().trim().min(1, "thought is empty"),
    action: z
      .string()
      .trim()
      .min(1, "action is empty")
      .refine((a) => candidates.length === 0 || matchCandidate(a, candidates) !== undefined, {
        message: "the action is not one of the listed actions",
      }),
  });
}

export function buildPolicyPrompt(
  task: Task,
  history: readonly Step[],
  observation: Observation,
  candidates: readonly string[],
  historyWindow: number,
): ChatMessage[] {
  const shown = historyWindow > 0 ? history.slice(-historyWindow) : [];
  const skipped = history.length - shown.length;
  const lines = [`## Task\n${task.instruction}`, "## History"];
  if (history.length === 0) lines.push("(this is the first step)");
  if (skipped > 0) lines.push(`(${skipped} earlier steps not shown)`);
  shown.forEach((step, i) => {
    const n = skipped + i + 1;
    lines.push(`${n}. action: ${step.action}\n   outcome: ${squash(step.next.text).slice(0, 600)}`);
  });
  lines.push(`## Observation\n${observation.text}`);
  lines.push(
    candidates.length > 0
      ? `## Actions you can take\n${candidates.map((c) => `- ${c}`).join("\n")}`
      : "## Actions you can take\n(not listed: write the action the observation calls for)",
  );
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: lines.join("\n\n") },
  ];
}

export class OpenAIPolicy implements Policy {
  readonly name: string;
  private readonly counters: OpenAIPolicyStats = { decisions: 0, fallbacks: 0 };

  constructor(
    private readonly llm: LlmClient,
    private readonly candidates: CandidateSource,
    private readonly options: OpenAIPolicyOptions = {},
  ) {
    this.name = `openai:${llm.model}`;
  }

  stats(): OpenAIPolicyStats {
    return { ...this.counters };
  }

  async act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision> {
    const candidates = this.candidates(task, observation);
    const messages = buildPolicyPrompt(
      task,
      history,
      observation,
      candidates,
      this.options.historyWindow ?? 6,
    );
    this.counters.decisions++;
    const result = await this.llm.chatJson(messages, {
      schema: replySchema(candidates),
      jsonSchema: { name: "agent_action", schema: REPLY_JSON_SCHEMA },
      temperature: this.options.temperature ?? 0,
      maxTokens: this.options.maxTokens ?? 512,
    });
    if (result.ok) {
      const action = matchCandidate(result.value.action, candidates) ?? squash(result.value.action);
      return { action, thought: result.value.thought };
    }
    // An agent that cannot answer still has to act; the first candidate keeps the episode well-formed and the
    // fallback is counted, so a run with a broken endpoint shows it instead of silently scoring 0.
    this.counters.fallbacks++;
    const fallback = candidates[0];
    if (fallback === undefined)
      throw new Error(`${this.name}: unusable reply and no candidate actions: ${result.error}`);
    return { action: fallback };
  }
}
