import type { z } from "zod";
import type { Usage } from "../types";
import type { LaneStats } from "./semaphore";

/** One message of a chat; the experience prompts (experience/prompt.ts) have the same shape. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * How strongly the server is asked for JSON, strongest first. Servers that reject a level are remembered per
 * model and asked at the next one; "text" relies on the JSON instruction the prompt already carries.
 */
export type ResponseFormatMode = "json_schema" | "json_object" | "text";

export interface JsonSchemaSpec {
  /** Letters, digits, _ and - only (OpenAI's rule). */
  name: string;
  schema: Record<string, unknown>;
}

export interface CompleteOptions {
  /** Absent: plain text. With a schema: json_schema (strict), falling back to json_object, then text. */
  json?: { schema?: JsonSchemaSpec };
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** Overrides the client's model for this call (the client's other state is shared). */
  model?: string;
}

/** What every call reports, successful or not: the cost of the answer and where it came from. */
export interface CallReport {
  model: string;
  /** Summed over every HTTP attempt of the call, the repair included. */
  usage: Usage;
  /** Wall time of the whole call: queueing for a permit, retries, backoff and the repair. */
  latencyMs: number;
  /** HTTP requests sent, including retries, format fallbacks and the repair. */
  requests: number;
  retries: number;
  format: ResponseFormatMode;
}

export interface Completion extends CallReport {
  text: string;
  /** "length" means the reply was cut at the token limit. */
  finishReason: string | null;
  /** Set when the model declined to answer (OpenAI's refusal field). */
  refusal?: string;
}

export type RepairMessages = (original: ChatMessage[], reply: string, error: string) => ChatMessage[];

export interface ChatJsonOptions<T> {
  schema: z.ZodType<T>;
  /** Enables structured output (response_format json_schema, strict) on servers that support it. */
  jsonSchema?: JsonSchemaSpec;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** How the one repair request is worded; a generic "reply again with only the JSON" when absent. */
  repair?: RepairMessages;
  model?: string;
}

export type ChatJsonResult<T> = CallReport & {
  /** Every reply text received, in order: the first, and the repaired one when there was a repair. */
  raws: string[];
  repaired: boolean;
} & ({ ok: true; value: T; text: string } | { ok: false; error: string });

/** Running counters of a client (and of every client sharing its state via withModel). */
export interface LlmStats {
  /** Calls of complete/chatJson started. */
  calls: number;
  /** HTTP requests sent. */
  requests: number;
  retries: number;
  /** Calls that threw LlmRequestError: the endpoint could not answer. */
  failures: number;
  /** chatJson calls that ended with an unusable reply after the repair. */
  invalidReplies: number;
  repairs: number;
  /** Times a response_format level was found unsupported and dropped for a model. */
  formatFallbacks: number;
  aborted: number;
  promptTokens: number;
  completionTokens: number;
  /** Of promptTokens, those the endpoint reported served from its prefix cache. */
  cachedPromptTokens: number;
  inFlight: number;
  maxInFlight: number;
  /** Mean requests in flight over the time any was: what the shared limit achieved. */
  achievedConcurrency: number;
  /** Per lane (the role that asked: experience, policy, task-generator…): permits granted and time waited. */
  lanes: Record<string, LaneStats>;
}
