import { z } from "zod";

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

/**
 * The JSON object in a model's reply: the whole text, or a fenced ```json block, or the outermost {...}.
 * Models wrap JSON in prose or fences more often than they break it.
 */
export function extractJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return trimmed;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  if (fenced?.[1]?.trim().startsWith("{")) return fenced[1].trim();
  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  return start >= 0 && end > start
    ? trimmed.slice(start, end + 1)
    : start >= 0
      ? trimmed.slice(start)
      : undefined;
}

export function parseExperienceReply(text: string): ParsedReply {
  const json = extractJson(text);
  if (json === undefined) return { ok: false, error: "the reply contains no JSON object" };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    const truncated = !json.trimEnd().endsWith("}");
    return {
      ok: false,
      error: `${truncated ? "the JSON is truncated" : "the JSON is malformed"} (${(error as Error).message})`,
    };
  }
  const parsed = ExperienceReply.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      error: parsed.error.issues.map((i) => `${i.path.join(".") || "(reply)"}: ${i.message}`).join("; "),
    };
  }
  return { ok: true, reply: parsed.data };
}
