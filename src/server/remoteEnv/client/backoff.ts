/**
 * Asking a remote environment again until it answers or has been failing for longer than its registration allows
 * (`downAfterMs`): then the run stops with `EnvironmentDown`, naming it, rather than waiting forever.
 */
import { EnvironmentDown } from "@/core/envs/remote/faults";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { RequestFailure } from "./failure";

export const FIRST_DELAY_MS = 200;
export const MAX_DELAY_MS = 5_000;

/** The wait before retry `n` (0-based): doubling from 200 ms, capped at 5 s. */
export function backoffDelay(n: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(n, 20));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RetryOptions {
  /** Called with every retryable failure before the wait; may throw to stop retrying (a broken episode). */
  onFailure?: (failure: RequestFailure, attempt: number) => void | Promise<void>;
  log?: (line: string) => void;
  /** What is being retried, for the log: "reset to task 12", "step 3". */
  what: string;
}

/**
 * Runs `attempt` until it succeeds. A retryable `RequestFailure` is retried after a backoff; anything else (a
 * refusal, a broken episode) is thrown at once. The wait never runs past the down deadline, so `EnvironmentDown`
 * comes within one request timeout of `downAfterMs` after the first failure.
 */
export async function retrying<T>(
  spec: RemoteEnvSpec,
  attempt: (n: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  let firstFailure: number | undefined;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof RequestFailure) || !error.retryable) throw error;
      await options.onFailure?.(error, n);
      const now = performance.now();
      firstFailure ??= now;
      const downFor = now - firstFailure;
      const left = spec.downAfterMs - downFor;
      if (left <= 0) throw new EnvironmentDown(spec.name, spec.url, downFor, error.message);
      const wait = Math.min(backoffDelay(n), left);
      options.log?.(
        `remote environment "${spec.name}": ${options.what} failed (${error.message}); retry ${n + 1} in ${Math.round(wait)} ms`,
      );
      await sleep(wait);
    }
  }
}
