import type { LlmClient } from "../llm";
import type { Observation } from "../types";
import { isAdmissible } from "./admissible";
import { buildExperiencePrompt, repairMessages } from "./prompt";
import { EXPERIENCE_REPLY_JSON_SCHEMA, ExperienceReply } from "./reply";
import type {
  ExperienceInput,
  ExperienceModel,
  ExperiencePrediction,
  ExperienceSettings,
  PredictOptions,
} from "./types";

export interface OpenAIExperienceOptions {
  /** Unset: the server's default. */
  temperature?: number;
  /** Room for the reasoning and a full page of next state; a rambling model is cut and repaired, not waited on. */
  maxTokens?: number;
}

const DEFAULT_MAX_TOKENS = 2_048;

/** Separates the first reply from the repaired one in `raw`, so that an auditor sees both. */
export const RAW_REPAIR_SEPARATOR = "\n\n--- reply to the repair request ---\n\n";

/** The paper's rule for an impossible action: the state stays exactly as it was and nothing is earned. */
function unchanged(
  state: Observation,
): Pick<ExperiencePrediction, "next" | "reward" | "done" | "success" | "valid"> {
  return {
    next: { text: state.text, ...(state.actions ? { actions: [...state.actions] } : {}) },
    reward: 0,
    done: false,
    success: false,
    valid: false,
  };
}

/**
 * Mexp behind any OpenAI-compatible endpoint. Bad replies (after the one repair) become error predictions that
 * leave the state unchanged; an endpoint that cannot answer throws LlmRequestError, and a cancelled run throws
 * LlmAbortedError, because neither is something a rollout should paper over.
 */
export class OpenAIExperienceModel implements ExperienceModel {
  readonly name: string;

  constructor(
    private readonly llm: LlmClient,
    private readonly settings: ExperienceSettings,
    private readonly options: OpenAIExperienceOptions = {},
  ) {
    this.name = `openai:${llm.model}`;
  }

  async predict(input: ExperienceInput, options: PredictOptions = {}): Promise<ExperiencePrediction> {
    const result = await this.llm.chatJson(buildExperiencePrompt(input, this.settings), {
      schema: ExperienceReply,
      jsonSchema: { name: "experience_reply", schema: EXPERIENCE_REPLY_JSON_SCHEMA },
      repair: repairMessages,
      temperature: this.options.temperature,
      maxTokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
      signal: options.signal,
    });
    const common = {
      model: this.name,
      latencyMs: result.latencyMs,
      usage: result.usage,
      raw: result.raws.join(RAW_REPAIR_SEPARATOR),
    };
    if (!result.ok) return { reasoning: "", ...unchanged(input.state), ...common, error: result.error };

    const reply = result.value;
    const reasoning = this.settings.reasoning ? reply.reasoning : "";
    // Still asked when the action is not admissible: how often the model agrees is a fidelity measure.
    if (isAdmissible(input.action, input.state.actions) === false) {
      const note =
        reply.valid === false
          ? ""
          : `[overridden: "${input.action}" is not among the admissible actions, so the state is unchanged and the reward is 0]`;
      const noted = this.settings.reasoning ? [note, reasoning].filter(Boolean).join(" ") : "";
      return { reasoning: noted, ...unchanged(input.state), ...common };
    }
    if (reply.valid === false) return { reasoning, ...unchanged(input.state), ...common };
    return {
      reasoning,
      next: { text: reply.next_state },
      reward: reply.reward,
      done: reply.done,
      success: reply.success,
      valid: true,
      ...common,
    };
  }
}
