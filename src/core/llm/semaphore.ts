import { LlmAbortedError } from "./errors";

/** What one lane (a role sharing the endpoint: experience model, policy, task generator…) has had of it. */
export interface LaneStats {
  /** Permits granted. */
  granted: number;
  /** Total time its requests waited for a permit. */
  waitedMs: number;
}

interface Waiter {
  wake: () => void;
  since: number;
}

const DEFAULT_LANE = "default";

/**
 * Bounds the requests in flight to one endpoint. Shared by every backend of a run (experience model, policy,
 * task generator, teacher, judge) so that together they never exceed what the server was configured to take.
 *
 * Fair between lanes: waiters queue per lane and a freed permit goes to the next lane in turn that has one, so a
 * burst of one role (the task generator writing a batch of variations) cannot hold up another's requests behind
 * it. Within a lane, first come first served. It also measures what it achieved: the mean number of requests in
 * flight over the time any was in flight.
 */
export class Semaphore {
  private active = 0;
  private peak = 0;
  private readonly queues = new Map<string, Waiter[]>();
  /** Lanes in the order they are served; the next turn starts after `turn`, the lane granted last. */
  private readonly order: string[] = [];
  private turn = -1;
  private readonly lanes = new Map<string, LaneStats>();
  private busyMs = 0;
  private permitMs = 0;
  private changedAt = 0;

  constructor(
    readonly limit: number,
    private readonly now: () => number = () => performance.now(),
  ) {
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
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Mean permits held over the time at least one was held (0 before any): the concurrency the endpoint saw. */
  get achievedConcurrency(): number {
    this.account();
    return this.busyMs > 0 ? this.permitMs / this.busyMs : 0;
  }

  laneStats(): Record<string, LaneStats> {
    return Object.fromEntries([...this.lanes].map(([lane, s]) => [lane, { ...s }]));
  }

  /** Resolves with a release function once a permit is free; rejects if the signal aborts while waiting. */
  async acquire(signal?: AbortSignal, lane = DEFAULT_LANE): Promise<() => void> {
    if (signal?.aborted) throw new LlmAbortedError(signal.reason);
    const stats = this.statsOf(lane);
    this.queueOf(lane);
    if (this.active < this.limit && this.waiting === 0) return this.grant(lane, stats, 0);
    const since = this.now();
    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = {
        since,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.grant(lane, stats, this.now() - since));
        },
      };
      const onAbort = () => {
        const queue = this.queues.get(lane) ?? [];
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(new LlmAbortedError(signal?.reason));
      };
      this.queueOf(lane).push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal, lane?: string): Promise<T> {
    const release = await this.acquire(signal, lane);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private statsOf(lane: string): LaneStats {
    let stats = this.lanes.get(lane);
    if (!stats) {
      stats = { granted: 0, waitedMs: 0 };
      this.lanes.set(lane, stats);
    }
    return stats;
  }

  private queueOf(lane: string): Waiter[] {
    let queue = this.queues.get(lane);
    if (!queue) {
      queue = [];
      this.queues.set(lane, queue);
      this.order.push(lane);
    }
    return queue;
  }

  /** The next lane after the last one granted that has a waiter: round robin. */
  private nextWaiter(): Waiter | undefined {
    for (let step = 1; step <= this.order.length; step++) {
      const at = (this.turn + step) % this.order.length;
      const waiter = this.queues.get(this.order[at]!)?.shift();
      if (waiter) return waiter;
    }
    return undefined;
  }

  /** Adds the time since the last change, weighted by the permits held during it. */
  private account(): void {
    const now = this.now();
    if (this.active > 0) {
      this.busyMs += now - this.changedAt;
      this.permitMs += (now - this.changedAt) * this.active;
    }
    this.changedAt = now;
  }

  private grant(lane: string, stats: LaneStats, waitedMs: number): () => void {
    this.account();
    this.turn = this.order.indexOf(lane);
    this.active += 1;
    this.peak = Math.max(this.peak, this.active);
    stats.granted += 1;
    stats.waitedMs += waitedMs;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.account();
      this.active -= 1;
      this.nextWaiter()?.wake();
    };
  }
}
