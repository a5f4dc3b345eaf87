import { LlmAbortedError } from "./errors";

/**
 * Bounds the requests in flight to one endpoint. Shared by every backend of a run (experience model, teacher,
 * judge, policy) so that together they never exceed what the server was configured to take.
 */
export class Semaphore {
  private active = 0;
  private peak = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`concurrency must be a positive integer, got ${limit}`);
  }

  get inFlight(): number {
    return this.active;
  }

  /** The most permits ever held at once: what tests and benchmarks check against the limit. */
  get maxInFlight(): number {
    return this.peak;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves with a release function once a permit is free; rejects if the signal aborts while waiting. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new LlmAbortedError(signal.reason);
    if (this.active < this.limit) return this.grant();
    return new Promise<() => void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(this.grant());
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(wake);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new LlmAbortedError(signal?.reason));
      };
      this.waiters.push(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private grant(): () => void {
    this.active += 1;
    this.peak = Math.max(this.peak, this.active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.waiters.shift()?.();
    };
  }
}
