import { Worker } from "node:worker_threads";
import type { RealDomain } from "@/core/envs/domain";
import type { RunConfig } from "@/core/train/config";
import type { IterationReport } from "@/core/train/run";
import { databaseUrlOf } from "../db";
import { type Fence, fenceClaimOf, LeaseLost } from "../queue/fence";
import type { JobContext } from "../queue/worker";
import { recordIteration } from "./runStore";

/**
 * Records a run's iterations (runStore.ts recordIteration), in order. `write` hands an iteration over and returns
 * once the one before it is recorded, so the run computes iteration i+1 while iteration i is stored: at most one
 * is in flight. An iteration that could not be recorded makes the next `write` (or `flush`) throw its error.
 */
export interface IterationWriter {
  write(report: IterationReport): Promise<void>;
  /** Waits until every iteration handed over is recorded; throws the error of one that was not. */
  flush(): Promise<void>;
  /** Stops the writer once what is in flight has settled (whatever its outcome). */
  close(): Promise<void>;
}

/** Told of each iteration once it is recorded, in order: its number and the run's progress. */
export type OnRecorded = (iteration: number, progress: number) => void;

export interface WriterRun {
  runId: string;
  config: RunConfig;
  domain: RealDomain;
}

/** What the writer thread is started with (workerData). */
export interface WriterThreadData {
  databaseUrl: string;
  runId: string;
  config: RunConfig;
  fence: { jobId: string; leaseToken: string | null; workerId: string };
}

export type ToWriter = { type: "record"; report: IterationReport } | { type: "close" };
export type FromWriter =
  | { type: "recorded"; iteration: number; progress: number }
  | { type: "failed"; iteration: number; leaseLost: boolean; message: string };

/**
 * The train job's writer: on a thread of its own with its own connection when the job's database and fence allow
 * it (SQLite through libsql is synchronous, so the rollouts and their real answers would otherwise be written on
 * the thread that computes the next iteration), inline otherwise. Every transaction the thread commits starts with
 * the job's fence, exactly as inline, and a lost lease stops the job the same way.
 */
export function iterationWriter(ctx: JobContext, run: WriterRun, onRecorded: OnRecorded): IterationWriter {
  const databaseUrl = databaseUrlOf(ctx.db);
  const claim = fenceClaimOf(ctx.fence);
  if (!databaseUrl || !claim) return inlineWriter(ctx, run, onRecorded);
  return new ThreadedWriter(
    { databaseUrl, runId: run.runId, config: run.config, fence: claim },
    ctx.fence,
    ctx.db,
    onRecorded,
  );
}

function inlineWriter(ctx: JobContext, run: WriterRun, onRecorded: OnRecorded): IterationWriter {
  return {
    async write(report) {
      const progress = await recordIteration(ctx.db, run.runId, run.config, run.domain, report, ctx.fence);
      onRecorded(report.iteration, progress);
    },
    async flush() {},
    async close() {},
  };
}

class ThreadedWriter implements IterationWriter {
  private readonly worker: Worker;
  private last: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;

  constructor(
    data: WriterThreadData,
    private readonly fence: Fence,
    private readonly db: JobContext["db"],
    private readonly onRecorded: OnRecorded,
  ) {
    // A plain module that registers the TypeScript loader, then loads the thread (iterationWriterThread.boot.mjs).
    this.worker = new Worker(new URL("./iterationWriterThread.boot.mjs", import.meta.url), {
      workerData: data,
    });
    this.worker.on("message", (m: FromWriter) => {
      const waiting = this.waiting.get(m.iteration);
      this.waiting.delete(m.iteration);
      if (m.type === "recorded") {
        this.onRecorded(m.iteration, m.progress);
        waiting?.resolve();
      } else {
        waiting?.reject(
          m.leaseLost ? new LeaseLost(data.fence.jobId, data.fence.workerId) : new Error(m.message),
        );
      }
    });
    const stopped = (error: Error) => {
      this.failure ??= new Error(`the iteration writer thread stopped: ${error.message}`);
      for (const waiting of this.waiting.values()) waiting.reject(this.failure);
      this.waiting.clear();
    };
    this.worker.on("error", stopped);
    this.worker.on("exit", (code) => stopped(new Error(`it exited with code ${code}`)));
  }

  async write(report: IterationReport): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    const recorded = new Promise<void>((resolve, reject) => {
      this.waiting.set(report.iteration, { resolve, reject });
    });
    this.worker.postMessage({ type: "record", report } satisfies ToWriter);
    this.last = recorded;
    // Its error is thrown by the next write or flush.
    recorded.catch(() => {});
  }

  async flush(): Promise<void> {
    try {
      await this.last;
    } catch (error) {
      // The thread's fence refused the write: this worker lost the job. The job's own fence says so too, which
      // aborts the job as an inline refusal would.
      if (error instanceof LeaseLost) await this.fence(this.db).catch(() => {});
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.last.catch(() => {});
    const exited = new Promise((resolve) => this.worker.once("exit", resolve));
    this.worker.postMessage({ type: "close" } satisfies ToWriter);
    await exited;
  }
}
