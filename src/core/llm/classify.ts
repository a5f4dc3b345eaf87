import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";

/**
 * What went wrong with one HTTP attempt, in the terms the retry loop decides on. Retryable: rate limits, server
 * errors, timeouts and dropped connections. Not retryable: any other 4xx. A rejected response_format is its
 * own kind, because the fix is a simpler request, not the same one later.
 */
export type FailureKind = "rate-limited" | "server" | "timeout" | "connection" | "format-rejected" | "client";

export interface ClassifiedFailure {
  kind: FailureKind;
  status?: number;
  message: string;
  headers?: Headers;
}

/**
 * How OpenAI, vLLM, Ollama and llama.cpp word "this server or model cannot do structured output": a parameter
 * they do not know, a schema they cannot compile into a grammar. Some older servers answer it with a 500.
 */
const FORMAT_REJECTION =
  /response_format|json_schema|json_object|structured output|guided_json|guided_decoding|unrecognized request argument/i;

export function isRetryable(kind: FailureKind): boolean {
  return kind === "rate-limited" || kind === "server" || kind === "timeout" || kind === "connection";
}

function describeBody(error: APIError): string {
  try {
    return JSON.stringify(error.error ?? "");
  } catch {
    return "";
  }
}

/** Undefined for anything that is not the SDK's: a bug of ours is rethrown as it is, not retried. */
export function classifyFailure(error: unknown, sentResponseFormat: boolean): ClassifiedFailure | undefined {
  if (error instanceof APIConnectionTimeoutError) return { kind: "timeout", message: "request timed out" };
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { kind: "connection", message: `${error.message}${cause}` };
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    const headers = error.headers;
    const message = error.message;
    if (sentResponseFormat && status >= 400 && FORMAT_REJECTION.test(`${message} ${describeBody(error)}`)) {
      return { kind: "format-rejected", status, message, headers };
    }
    if (status === 429) return { kind: "rate-limited", status, message, headers };
    // 408 is the server's own request timeout: the same situation as ours, so retried like it.
    if (status === 408) return { kind: "timeout", status, message, headers };
    if (status >= 500) return { kind: "server", status, message, headers };
    return { kind: "client", status, message, headers };
  }
  return undefined;
}
