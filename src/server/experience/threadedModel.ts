import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { OfflineMemory, OfflineMemoryData } from "@/core/experience/retrieval/offlineMemory";
import {
  RETRIEVAL_EXPERIENCE_MODEL,
  RetrievalExperienceModel,
} from "@/core/experience/retrieval/retrievalModel";
import type {
  ExperienceInput,
  ExperienceModel,
  ExperiencePrediction,
  ExperienceSettings,
} from "@/core/experience/types";

interface Pending {
  resolve: (p: ExperiencePrediction) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** Threads by default: the cores beside the one that runs rollouts, policy and retrieval. */
export function defaultThreads(): number {
  return Math.max(0, availableParallelism() - 1);
}

/**
 * The embedded experience model on worker threads: a run's rollouts, policy and retrieval stay on the main thread
 * while predictions (analogy alignment, the CPU-heavy part) run beside them, so both cores work and the main
 * thread stays free for the lease heartbeat. Each prediction goes to the thread with the fewest in hand. The model
 * is deterministic and its threads keep only memos, so results are the same as inline, whatever the threads.
 */
export class ThreadedExperienceModel implements ExperienceModel {
  readonly name = RETRIEVAL_EXPERIENCE_MODEL;
  private readonly threads: Thread[];
  private nextId = 0;
  private failure: Error | undefined;

  constructor(settings: Pick<ExperienceSettings, "reasoning">, count: number, memory?: OfflineMemory) {
    if (!(count >= 1)) throw new Error(`ThreadedExperienceModel needs at least one thread, got ${count}`);
    // Every thread learns the same memory, so any thread gives the same answer.
    const data = memory?.toData();
    this.threads = Array.from({ length: count }, () => this.start(settings, data));
  }

  private start(settings: Pick<ExperienceSettings, "reasoning">, memory?: OfflineMemoryData): Thread {
    // A plain module that registers the TypeScript loader, then loads the thread (predictThread.boot.mjs).
    const worker = new Worker(new URL("./predictThread.boot.mjs", import.meta.url), {
      workerData: { reasoning: settings.reasoning, memory } satisfies PredictThreadData,
    });
    const thread: Thread = { worker, pending: new Map() };
    worker.on("message", (m: { id: number; prediction?: ExperiencePrediction; error?: string }) => {
      const waiting = thread.pending.get(m.id);
      if (!waiting) return;
      thread.pending.delete(m.id);
      if (m.prediction) waiting.resolve(m.prediction);
      else waiting.reject(new Error(`experience model thread: ${m.error ?? "no prediction"}`));
      // An idle thread must not keep the process alive.
      if (thread.pending.size === 0) worker.unref();
    });
    const fail = (error: Error) => {
      this.failure ??= new Error(`experience model thread stopped: ${error.message}`);
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

  predict(input: ExperienceInput): Promise<ExperiencePrediction> {
    if (this.failure) return Promise.reject(this.failure);
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.ref();
      thread.worker.postMessage({ id, input });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}

/** The embedded experience model, on `threads` threads beside the main one (inline when 0). */
export function embeddedExperienceModel(
  settings: Pick<ExperienceSettings, "reasoning">,
  threads = defaultThreads(),
  memory?: OfflineMemory,
): ExperienceModel {
  return threads > 0
    ? new ThreadedExperienceModel(settings, threads, memory)
    : new RetrievalExperienceModel(settings, memory);
}

/** What a prediction thread is started with. */
export interface PredictThreadData {
  reasoning: boolean;
  memory: OfflineMemoryData | undefined;
}
