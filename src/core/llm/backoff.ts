import { LlmAbortedError } from "./errors";

export interface BackoffPolicy {
  /** Delay before the first retry; doubles on each further retry. */
  baseMs: number;
  /** Upper bound of the exponential delay. */
  maxMs: number;
  /** Upper bound on a server's Retry-After: a server asking for minutes must not stall a run silently. */
  retryAfterCapMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 20_000, retryAfterCapMs: 30_000 };

/**
 * Exponential backoff with jitter in [50%, 100%] of the step, so that the N clients of a run that were throttled
 * together do not all come back in the same millisecond.
 */
export function backoffDelay(
  retry: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry));
  return Math.round(step * (0.5 + 0.5 * random()));
}

/**
 * The server's requested wait, from `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date), capped.
 * Undefined when absent or unreadable.
 */
export function retryAfterMs(
  headers: Headers | undefined,
  capMs: number,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, capMs);
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, capMs);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.min(Math.max(0, date - now), capMs) : undefined;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new LlmAbortedError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmAbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
