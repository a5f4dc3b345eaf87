import { z } from "zod";
import { type ChatMessage, type LlmClient, LlmReplyError } from "../llm";
import type { Episode } from "../rollout";

/**
 * A judge of whole episodes: did the agent do what the instruction asked, by the state it ended in? In a domain
 * with no real environment (an imported one) it is one more proxy for success, next to the experience model's own
 * verdict, and as fallible as any LLM's reading. Only an LLM can judge this for text it has never seen, so there
 * is no embedded one.
 */
export interface OutcomeJudge {
  readonly name: string;
  /** The verdict on one episode; throws LlmReplyError when the endpoint gave no usable verdict. */
  judge(episode: Episode, options?: { signal?: AbortSignal }): Promise<OutcomeVerdict>;
}

export const OutcomeVerdict = z.object({
  success: z.boolean(),
  rationale: z.string().trim().min(1, "rationale is empty"),
});
export type OutcomeVerdict = z.infer<typeof OutcomeVerdict>;

const VERDICT_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["success", "rationale"],
  properties: { success: { type: "boolean" }, rationale: { type: "string" } },
};

/** Prompt version: stored verdicts say which instructions produced them. */
export const OUTCOME_JUDGE_PROMPT = "dreamgym-outcome-judge-v1";

const SYSTEM = [
  "You judge whether an agent completed its task in a text environment. You see the task instruction, the state",
  "the agent started in, each action it took with the state that followed (shortened), and the full final state.",
  "Judge by the final state and the actions only: success means the final state shows the instruction done",
  "(the right item bought with the asked options, the right answer submitted, the record changed as asked).",
  "An episode that stopped before finishing, or finished with something other than what was asked, failed.",
  'Reply with one JSON object and nothing else: {"success": true|false, "rationale": "<one or two sentences',
  'naming the evidence in the final state>"}',
].join("\n");

/** Enough of each intermediate state to follow the episode; the final state is given whole (up to a bound). */
const STEP_CHARS = 300;
const FINAL_CHARS = 4_000;

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)} …`;
}

/** The judge's prompt: what is shared by every episode of a task first, so an endpoint can reuse its prefix. */
export function outcomeJudgeMessages(episode: Episode): ChatMessage[] {
  const first = episode.steps[0];
  const last = episode.steps[episode.steps.length - 1];
  const lines = [
    `## Task\n${episode.task.instruction}`,
    `## Start state\n${first ? clip(first.state.text, FINAL_CHARS) : "(the episode took no step)"}`,
    "## Actions",
    ...episode.steps.map(
      (s, i) => `${i + 1}. ${s.action}${s.valid ? "" : " (not possible)"} → ${clip(s.next.text, STEP_CHARS)}`,
    ),
    `## Final state\n${last ? clip(last.next.text, FINAL_CHARS) : "(unchanged)"}`,
    `The episode ${last?.done ? "ended there" : "was cut off at its step limit"}.`,
  ];
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: lines.join("\n") },
  ];
}

function repair(original: ChatMessage[], reply: string, error: string): ChatMessage[] {
  return [
    ...original,
    { role: "assistant", content: reply },
    {
      role: "user",
      content: `Your reply could not be used: ${error}. Reply again with only the JSON object {"success": true|false, "rationale": "..."}.`,
    },
  ];
}

export class OpenAIOutcomeJudge implements OutcomeJudge {
  readonly name: string;

  constructor(private readonly llm: LlmClient) {
    this.name = `openai:${llm.model}`;
  }

  async judge(episode: Episode, options: { signal?: AbortSignal } = {}): Promise<OutcomeVerdict> {
    const result = await this.llm.chatJson(outcomeJudgeMessages(episode), {
      schema: OutcomeVerdict,
      jsonSchema: { name: "outcome_verdict", schema: VERDICT_JSON_SCHEMA },
      repair,
      temperature: 0,
      maxTokens: 256,
      signal: options.signal,
    });
    // No verdict from an unusable reply: a made-up one would be counted as evidence.
    if (!result.ok)
      throw new LlmReplyError(
        `${this.name} outcome judge at ${this.llm.baseURL}: ${result.error}`,
        result.raws,
      );
    return result.value;
  }
}
