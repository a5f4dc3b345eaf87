import { z } from "zod";
import { type ChatMessage, type LlmClient, LlmReplyError } from "../llm";
import { buildExperiencePrompt } from "./prompt";
import {
  DEFAULT_EXPERIENCE_SETTINGS,
  type ExperienceInput,
  type ExperienceSettings,
  type PredictOptions,
  type Teacher,
  type TeacherTrace,
  type TransitionOutcome,
} from "./types";

/**
 * Phrases that give away that the outcome was handed over. A trace that says them teaches the experience model to
 * expect the answer, not to derive it, so such a reply is rejected and repaired.
 */
const LEAK =
  /\b(real|actual|true) (environment|outcome|next state|result)\b|\b(given|provided|revealed) (outcome|answer|next state|result)\b|\b(we|i) (are|am|were|was) (told|given)\b|\bthe outcome (above|below|provided|shown)\b/i;

export const TeacherReply = z.object({
  reasoning: z
    .string()
    .trim()
    .min(1, "reasoning is empty")
    .refine((text) => !LEAK.test(text), {
      message:
        "the reasoning refers to being given the outcome; write it as a prediction derived from the evidence",
    }),
});

const TEACHER_REPLY_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["reasoning"],
  properties: {
    reasoning: {
      type: "string",
      description: "Causal reasoning from the state, action and demonstrations to the outcome",
    },
  },
};

const SYSTEM = [
  "You write the reasoning trace an experience model should think before it predicts a transition of a",
  "reinforcement-learning environment. You are shown the task, the recent history, similar demonstrations, the",
  "current state and the agent's action, and also the outcome that follows. Explain causally why this action, in",
  "this state, leads to exactly that next state, reward and end of episode:",
  "- write as if you were predicting it: reason forward from the evidence, in the present tense;",
  "- cite the state elements the action acts on and the demonstrations that show the same kind of transition;",
  "- explain the reward (outcome rewards: 1 only when the task is accomplished at the final step, else 0);",
  "- if the action is invalid, explain why it is not possible here, so the state stays the same with reward 0;",
  "- never mention that the outcome was shown to you, and never refer to a 'real' or 'actual' environment.",
  'Reply with one JSON object and nothing else: {"reasoning": "<the trace>"}',
].join("\n");

/** The experience prompt's context (task, history, demonstrations, state, action): what Mexp itself would see. */
export function experienceContext(input: ExperienceInput, settings: ExperienceSettings): string {
  return buildExperiencePrompt(input, { ...settings, reasoning: true })
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n\n");
}

function describeOutcome(outcome: TransitionOutcome): string {
  return [
    "## Outcome to explain",
    `next_state: ${outcome.next.text}`,
    `reward: ${outcome.reward}, done: ${outcome.done}, success: ${outcome.success}, valid: ${outcome.valid}`,
  ].join("\n");
}

function repair(original: ChatMessage[], reply: string, error: string): ChatMessage[] {
  return [
    ...original,
    { role: "assistant", content: reply },
    {
      role: "user",
      content: `Your reply could not be used: ${error}. Reply again with only the JSON object {"reasoning": "..."}.`,
    },
  ];
}

export interface OpenAITeacherOptions {
  temperature?: number;
  maxTokens?: number;
}

/**
 * Writes reasoning traces for offline transitions (the SFT targets of the experience model's joint objective).
 * A reply that stays unusable after the repair throws LlmReplyError: a trace slot has no room for an error, and an
 * empty trace must not reach the annotators' queue as if it were one.
 */
export class OpenAITeacher implements Teacher {
  readonly name: string;

  constructor(
    private readonly llm: LlmClient,
    private readonly settings: ExperienceSettings = DEFAULT_EXPERIENCE_SETTINGS,
    private readonly options: OpenAITeacherOptions = {},
  ) {
    this.name = `openai:${llm.model}`;
  }

  async explain(
    input: ExperienceInput,
    outcome: TransitionOutcome,
    options: PredictOptions = {},
  ): Promise<TeacherTrace> {
    const messages: ChatMessage[] = [
      { role: "system", content: SYSTEM },
      { role: "user", content: `${experienceContext(input, this.settings)}\n\n${describeOutcome(outcome)}` },
    ];
    const result = await this.llm.chatJson(messages, {
      schema: TeacherReply,
      jsonSchema: { name: "teacher_trace", schema: TEACHER_REPLY_JSON_SCHEMA },
      repair,
      temperature: this.options.temperature,
      maxTokens: this.options.maxTokens ?? 1_024,
      signal: options.signal,
    });
    if (!result.ok)
      throw new LlmReplyError(`${this.name} teacher at ${this.llm.baseURL}: ${result.error}`, result.raws);
    return {
      reasoning: result.value.reasoning,
      model: this.name,
      latencyMs: result.latencyMs,
      usage: result.usage,
    };
  }
}
