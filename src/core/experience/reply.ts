import { z } from "zod";
import { parseJsonReply } from "../llm/jsonReply";

/**
 * The experience model's reply: reasoning first (the paper's model thinks, then predicts), then the outcome.
 * `valid` is optional for models that only follow the paper's four fields; it then defaults to true unless the
 * reasoning's outcome says otherwise (the caller applies the invalid-action rule).
 */
export const ExperienceReply = z.object({
  reasoning: z.string(),
  next_state: z.string().min(1, "next_state is empty"),
  reward: z.number().finite().min(-1).max(1),
  done: z.boolean(),
  success: z.boolean(),
  valid: z.boolean().optional(),
});
export type ExperienceReply = z.infer<typeof ExperienceReply>;

/** JSON Schema of the reply, for servers that support structured output (response_format json_schema). */
export const EXPERIENCE_REPLY_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["reasoning", "next_state", "reward", "done", "success", "valid"],
  properties: {
    reasoning: {
      type: "string",
      description: "Step-by-step causal reasoning about the transition, citing the evidence used",
    },
    next_state: {
      type: "string",
      description: "The next state, in the same compact text format as the current state",
    },
    reward: {
      type: "number",
      description: "Outcome reward of this step (1 on success at the last step, else 0)",
    },
    done: { type: "boolean" },
    success: { type: "boolean" },
    valid: { type: "boolean", description: "False if the action is not possible in the current state" },
  },
} as const;

export type ParsedReply = { ok: true; reply: ExperienceReply } | { ok: false; error: string };

/** The reply parsed and validated; the error says what is wrong and where (it is sent back for the repair). */
export function parseExperienceReply(text: string): ParsedReply {
  const parsed = parseJsonReply(text, ExperienceReply);
  return parsed.ok ? { ok: true, reply: parsed.value } : { ok: false, error: parsed.error };
}
