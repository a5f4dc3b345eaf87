/**
 * The three ways a call to a model can end without a usable answer, kept apart because the run treats them apart:
 * a cancelled run (stop quietly), an endpoint that is down or misconfigured (stop the run, say why), and a reply
 * that could not be used (record it as a failed prediction and go on).
 */

/** The caller's AbortSignal fired: the run was cancelled, nothing is wrong with the endpoint. */
export class LlmAbortedError extends Error {
  override readonly name = "AbortError";
  constructor(reason?: unknown) {
    super(reason instanceof Error ? `aborted: ${reason.message}` : "aborted");
  }
}

export interface LlmRequestFailure {
  model: string;
  baseURL: string;
  /** HTTP status of the last attempt; undefined for connection errors and timeouts. */
  status?: number;
  /** HTTP requests sent for this call, including retries. */
  attempts: number;
  /** False when the server refused for a reason a retry cannot fix (401, 404, a bad request). */
  retryable: boolean;
}

/**
 * The endpoint could not answer: retries exhausted on 429/5xx/timeouts/connection errors, or a non-retryable
 * 4xx. Thrown, never folded into a prediction, because a run against a dead endpoint must stop and say so.
 */
export class LlmRequestError extends Error {
  override readonly name = "LlmRequestError";
  constructor(
    message: string,
    readonly failure: LlmRequestFailure,
  ) {
    super(message);
  }
}

/**
 * A reply that stayed unusable after the one repair attempt, for backends whose contract has no error slot
 * (teacher, judge). The experience model returns an error prediction instead.
 */
export class LlmReplyError extends Error {
  override readonly name = "LlmReplyError";
  constructor(
    message: string,
    /** Every reply text received, the first one and the repaired one. */
    readonly raw: string[],
  ) {
    super(message);
  }
}
