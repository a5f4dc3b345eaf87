import { Worker } from "node:worker_threads";
import type { RealDomain } from "@/core/envs/domain";
import type { RunConfig } from "@/core/train/config";
import type { IterationReport } from "@/core/train/run";
import { databaseUrlOf } from "../db";
import { type Fence, fenceClaimOf, LeaseLost } from "../queue/fence";
import type { JobContext } from "../queue/worker";
import { threadEntry } from "../threads/threadEntry";
import { recordIteration } from "./runStore";

/**
 * Records a run's iterations (runStore.ts recordIteration), in order. `write` hands an iteration over and returns
 * at once: its rows (and the real environment's answers) are prepared while the run computes the next one, and
 * its one transaction (rollouts, metrics, checkpoint, the run's progress) commits once the next one is handed
 * over, or at `flush`. So an iteration is stored whole or not at all, the recorded iteration never runs ahead of
 * what the loop has computed since, and at most one iteration waits for its commit. An iteration that could not
 * be recorded makes the next `write` (or `flush`) throw its error.
 */
export interface IterationWriter {
  write(report: IterationReport): Promise<void>;
  /** Commits every iteration handed over; throws the error of one that could not be recorded. */
  flush(): Promise<void>;
  /** Waits for what is in flight and commits nothing more; returns the error it ended with, if any. */
  settle(): Promise<Error | undefined>;
  /** Stops the writer once what is in flight has settled (whatever its outcome). */
  close(): Promise<void>;
}

/** Told of each iteration once it is recorded, in order: its number and the run's progress. */
export type OnRecorded = (iteration: number, progress: number) => void;

export interface WriterRun {
  runId: string;
  config: RunConfig;
  /** The real environment that answers synthetic steps for the store; none for an imported domain. */
  domain: RealDomain | undefined;
}

/** What the writer thread is started with (workerData). */
export interface WriterThreadData {
  databaseUrl: string;
  runId: string;
  config: RunConfig;
  fence: { jobId: string; leaseToken: string | null; workerId: string };
}

export type ToWriter =
  | { type: "prepare"; report: IterationReport }
  /** `final`: the job's last iteration, whose state is always the checkpoint. */
  | { type: "commit"; iteration: number; final: boolean }
  | { type: "close" };
export type FromWriter =
  | { type: "prepared"; iteration: number }
  | { type: "committed"; iteration: number; progress: number }
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
    async settle() {
      return undefined;
    },
    async close() {},
  };
}

class ThreadedWriter implements IterationWriter {
  private readonly worker: Worker;
  /** The iteration handed over and not yet committed. */
  private uncommitted: number | undefined;
  /** Settles when everything handed over so far is done; rejects with the first failure. */
  private last: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  /** Resolves when the thread has exited (closed, or stopped by an error). */
  private readonly exited: Promise<void>;

  constructor(
    data: WriterThreadData,
    private readonly fence: Fence,
    private readonly db: JobContext["db"],
    private readonly onRecorded: OnRecorded,
  ) {
    this.worker = new Worker(
      threadEntry(
        new URL("./iterationWriterThread.ts", import.meta.url),
        new URL("./iterationWriterThread.boot.mjs", import.meta.url),
      ),
      { workerData: data },
    );
    this.worker.on("message", (m: FromWriter) => {
      const key = `${m.type === "failed" ? "any" : m.type}:${m.iteration}`;
      if (m.type === "committed") this.onRecorded(m.iteration, m.progress);
      if (m.type !== "failed") {
        this.waiting.get(key)?.resolve();
        this.waiting.delete(key);
        return;
      }
      const error = m.leaseLost ? new LeaseLost(data.fence.jobId, data.fence.workerId) : new Error(m.message);
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
      this.failure ??= error;
    });
    const stopped = (error: Error) => {
      this.failure ??= new Error(`the iteration writer thread stopped: ${error.message}`);
      for (const waiting of this.waiting.values()) waiting.reject(this.failure);
      this.waiting.clear();
    };
    this.worker.on("error", stopped);
    this.exited = new Promise((resolve) =>
      this.worker.on("exit", (code) => {
        stopped(new Error(`it exited with code ${code}`));
        resolve();
      }),
    );
  }

  async write(report: IterationReport): Promise<void> {
    await this.settled();
    this.commitUncommitted(false);
    this.send({ type: "prepare", report }, `prepared:${report.iteration}`);
    this.uncommitted = report.iteration;
  }

  async flush(): Promise<void> {
    await this.settled();
    this.commitUncommitted(true);
    await this.settled();
  }

  async settle(): Promise<Error | undefined> {
    this.uncommitted = undefined;
    return this.settled().then(
      () => undefined,
      (error: Error) => error,
    );
  }

  async close(): Promise<void> {
    await this.last.catch(() => {});
    this.worker.postMessage({ type: "close" } satisfies ToWriter);
    await this.exited;
  }

  private commitUncommitted(final: boolean): void {
    if (this.uncommitted === undefined) return;
    this.send({ type: "commit", iteration: this.uncommitted, final }, `committed:${this.uncommitted}`);
    this.uncommitted = undefined;
  }

  private send(message: ToWriter & { type: "prepare" | "commit" }, key: string): void {
    if (this.failure) throw this.failure;
    const done = new Promise<void>((resolve, reject) => this.waiting.set(key, { resolve, reject }));
    this.worker.postMessage(message);
    this.last = done;
    // Its error is thrown by the next write or flush.
    done.catch(() => {});
  }

  /** Waits for what was handed over; a failure there is thrown (a lost lease also aborts the job, as inline). */
  private async settled(): Promise<void> {
    try {
      await this.last;
      if (this.failure) throw this.failure;
    } catch (error) {
      // The thread's fence refused the write: this worker lost the job. The job's own fence says so too, which
      // aborts the job as an inline refusal would.
      if (error instanceof LeaseLost) await this.fence(this.db).catch(() => {});
      throw error;
    }
  }
}
