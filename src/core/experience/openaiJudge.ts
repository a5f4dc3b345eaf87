import { z } from "zod";
import { type ChatMessage, type LlmClient, LlmReplyError } from "../llm";
import { experienceContext } from "./openaiTeacher";
import {
  DEFAULT_EXPERIENCE_SETTINGS,
  type ExperienceInput,
  type ExperiencePrediction,
  type ExperienceSettings,
  type Judge,
  type JudgeScores,
  type PredictOptions,
} from "./types";

const Score = z
  .number()
  .int("must be an integer 0, 1 or 2")
  .min(0, "must be 0, 1 or 2")
  .max(2, "must be 0, 1 or 2");

export const JudgeReply = z.object({
  causal: Score,
  diversity: Score,
  informativeness: Score,
  hallucination: Score,
  rationale: z.string().trim().min(1, "rationale is empty"),
});

const SCORE_SCHEMA = { type: "integer", enum: [0, 1, 2] };
const JUDGE_REPLY_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["causal", "diversity", "informativeness", "hallucination", "rationale"],
  properties: {
    causal: SCORE_SCHEMA,
    diversity: SCORE_SCHEMA,
    informativeness: SCORE_SCHEMA,
    hallucination: SCORE_SCHEMA,
    rationale: { type: "string" },
  },
};

/** The paper's four rubrics for synthetic transitions, each 0–2, higher better. */
const SYSTEM = [
  "You judge one transition predicted by the experience model of a reinforcement-learning environment. You see",
  "what it saw (task, history, demonstrations from real experience, current state, action) and what it predicted.",
  "Score each rubric 0, 1 or 2 (higher is better):",
  "- causal: does the predicted next state, reward and done follow from applying this action to this state?",
  "  2 = exactly the consequence of the action; 1 = plausible with inconsistencies (a wrong reward, unrelated",
  "  changes); 0 = does not follow, or contradicts the action. An impossible action must leave the state unchanged.",
  "- diversity: is the next state specific to this state and action rather than a generic template or a verbatim",
  "  copy of a demonstration that ignores what differs here? 2 = specific; 1 = partly templated; 0 = generic or",
  "  degenerate.",
  "- informativeness: does the next state give the agent what it needs to make progress (the elements, options or",
  "  feedback the action should reveal), with a meaningful reward? 2 = informative; 1 = partly; 0 = uninformative.",
  "- hallucination: does the prediction invent elements, objects, values or outcomes that neither the current state",
  "  nor the demonstrations support? 2 = none; 1 = minor unsupported details; 0 = substantial fabrication.",
  'Reply with one JSON object and nothing else: {"causal": 0-2, "diversity": 0-2, "informativeness": 0-2,',
  '"hallucination": 0-2, "rationale": "<two or three sentences naming the evidence>"}',
].join("\n");

function describePrediction(prediction: ExperiencePrediction): string {
  return [
    "## Predicted transition",
    `reasoning: ${prediction.reasoning || "(none)"}`,
    `next_state: ${prediction.next.text}`,
    `reward: ${prediction.reward}, done: ${prediction.done}, success: ${prediction.success}, valid: ${prediction.valid}`,
  ].join("\n");
}

function repair(original: ChatMessage[], reply: string, error: string): ChatMessage[] {
  return [
    ...original,
    { role: "assistant", content: reply },
    {
      role: "user",
      content: `Your reply could not be used: ${error}. Reply again with only the JSON object, every score an integer 0, 1 or 2.`,
    },
  ];
}

export interface OpenAIJudgeOptions {
  /** 0 by default: the same transition should get the same scores. */
  temperature?: number;
  maxTokens?: number;
}

/**
 * An LLM judge of synthetic transitions. A reply that stays unusable after the repair throws LlmReplyError:
 * scores cannot be half-trusted, and a missing score is better than a made-up one.
 */
export class OpenAIJudge implements Judge {
  readonly name: string;

  constructor(
    private readonly llm: LlmClient,
    private readonly settings: ExperienceSettings = DEFAULT_EXPERIENCE_SETTINGS,
    private readonly options: OpenAIJudgeOptions = {},
  ) {
    this.name = `openai:${llm.model}`;
  }

  async score(
    input: ExperienceInput,
    prediction: ExperiencePrediction,
    options: PredictOptions = {},
  ): Promise<JudgeScores> {
    const messages: ChatMessage[] = [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `${experienceContext(input, this.settings)}\n\n${describePrediction(prediction)}`,
      },
    ];
    const result = await this.llm.chatJson(messages, {
      schema: JudgeReply,
      jsonSchema: { name: "judge_scores", schema: JUDGE_REPLY_JSON_SCHEMA },
      repair,
      temperature: this.options.temperature ?? 0,
      maxTokens: this.options.maxTokens ?? 512,
      signal: options.signal,
    });
    // No verdict from an unusable reply: the error names the endpoint and what it answered, with the raw texts.
    if (!result.ok)
      throw new LlmReplyError(`${this.name} judge at ${this.llm.baseURL}: ${result.error}`, result.raws);
    return { ...result.value, model: this.name, usage: result.usage };
  }
}
