import type { z } from "zod";

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

export type ParsedJson<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A model's reply text as a value of the schema: the JSON object is found (bare, fenced or inside prose), parsed,
 * then validated. The error names what is wrong and where, because it is sent back to the model to repair.
 */
export function parseJsonReply<T>(text: string, schema: z.ZodType<T>): ParsedJson<T> {
  // Reasoning models served by vLLM or Ollama (Qwen3, DeepSeek-R1) think aloud before the JSON, braces included.
  const json = extractJson(text.replace(/<think>[\s\S]*?<\/think>/gi, ""));
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
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map(String).join(".") || "(reply)"}: ${i.message}`,
    );
    return { ok: false, error: `the JSON does not match the expected shape: ${issues.join("; ")}` };
  }
  return { ok: true, value: parsed.data };
}
