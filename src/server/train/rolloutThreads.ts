import { Worker } from "node:worker_threads";
import type { RealDomainName } from "@/core/envs/names";
import type { OfflineMemory, OfflineMemoryData } from "@/core/experience/retrieval/offlineMemory";
import type { ExperienceSettings } from "@/core/experience/types";
import type { LinearPolicy } from "@/core/policy/linearPolicy";
import type { LinearValue } from "@/core/policy/value";
import type { CollectedEpisode } from "@/core/rl/collect";
import type { RolloutPool } from "@/core/train/rolloutPool";
import type { Task, Transition } from "@/core/types";

/** What a rollout thread is started with: enough to rebuild the run's synthetic environment exactly. */
export interface RolloutThreadData {
  domain: RealDomainName;
  settings: ExperienceSettings;
  /** The replay buffer's rows, in the order the run's buffer took them (retrieval depends on it). */
  transitions: Transition[];
  memory: OfflineMemoryData;
}

/** The acting policy's settings besides its weights (LinearPolicyOptions without the candidate source). */
export interface PolicySettings {
  seed: number;
  temperature: number;
  dimension: number;
  fallbackAction: string;
  greedy: boolean;
}

export type RolloutMessage =
  | { type: "weights"; policy: PolicySettings; weights: Float32Array; value?: Float32Array }
  | { type: "episode"; id: number; task: Task; maxSteps: number; key: string };

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (c: CollectedEpisode) => void; reject: (e: Error) => void }>;
}

/**
 * Rollout threads: whole synthetic episodes on the other cores, while the main thread plays its share, learns and
 * answers the queue. Each thread rebuilds the run's synthetic environment from the same data (replay buffer rows in
 * the same order, the same learnt memory, the embedded model and embedder, which are deterministic) and acts with
 * the weights synced before each iteration, so an episode is the same whichever thread plays it.
 *
 * Only the embedded backends with offline-only retrieval qualify: the buffer a thread holds never changes, as the
 * run's offline partition never does. Anything else plays on the main thread (runDeps.ts decides).
 */
export class ThreadRolloutPool implements RolloutPool {
  readonly capacity: number;
  /** Episodes the threads have played so far. */
  played = 0;
  private readonly threads: Thread[];
  private nextId = 0;
  private failure: Error | undefined;

  constructor(
    data: RolloutThreadData,
    count: number,
    /** Episodes each thread plays at once (they interleave while one waits on another). */
    private readonly perThread: number,
  ) {
    if (!(count >= 1)) throw new Error(`a rollout pool needs at least one thread, got ${count}`);
    this.threads = Array.from({ length: count }, () => this.start(data));
    this.capacity = count * perThread;
  }

  private start(data: RolloutThreadData): Thread {
    const worker = new Worker(new URL("./rolloutThread.boot.mjs", import.meta.url), { workerData: data });
    const thread: Thread = { worker, pending: new Map() };
    worker.on("message", (m: { id: number; collected?: CollectedEpisode; error?: string }) => {
      const waiting = thread.pending.get(m.id);
      if (!waiting) return;
      thread.pending.delete(m.id);
      if (m.collected) {
        this.played++;
        waiting.resolve(m.collected);
      } else waiting.reject(new Error(`rollout thread: ${m.error ?? "no episode"}`));
      if (thread.pending.size === 0) worker.unref();
    });
    const fail = (error: Error) => {
      this.failure ??= new Error(`rollout thread stopped: ${error.message}`);
      for (const waiting of thread.pending.values()) waiting.reject(this.failure);
      thread.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (thread.pending.size > 0) fail(new Error(`it exited with code ${code}`));
    });
    worker.unref();
    return thread;
  }

  hasRoom(): boolean {
    return this.failure === undefined && this.threads.some((t) => t.pending.size < this.perThread);
  }

  sync(policy: LinearPolicy, value?: LinearValue): void {
    const message: RolloutMessage = {
      type: "weights",
      policy: {
        seed: policy.seed,
        temperature: policy.temperature,
        dimension: policy.dimension,
        fallbackAction: policy.fallbackAction,
        greedy: policy.greedy,
      },
      weights: policy.weights,
      ...(value ? { value: value.weights } : {}),
    };
    for (const t of this.threads) t.worker.postMessage(message);
  }

  run(task: Task, maxSteps: number, key: string): Promise<CollectedEpisode> {
    if (this.failure) return Promise.reject(this.failure);
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.ref();
      const message: RolloutMessage = { type: "episode", id, task, maxSteps, key };
      thread.worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}

/** The thread data of a run's synthetic environment, from what runDeps built it with. */
export function rolloutThreadData(
  domain: RealDomainName,
  settings: ExperienceSettings,
  transitions: Transition[],
  memory: OfflineMemory,
): RolloutThreadData {
  return { domain, settings, transitions, memory: memory.toData() };
}
