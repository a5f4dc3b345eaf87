import type { Job } from "@/generated/prisma/client";
import { type Db, databaseUrlOf } from "../db";
import { dialectOf } from "../sql/dialect";
import { BeatSchedule, type Progress } from "./beatSchedule";
import { type Fence, fenceFor } from "./fence";
import type { HeartbeatThread } from "./heartbeatThread";
import { isJobType, type JobPayload, type JobType, parsePayload } from "./payloads";
import { claim, complete, fail, heartbeat, markCancelled, release } from "./queue";
import { listenForJobs } from "./wakeup";

export interface JobContext {
  job: Job;
  db: Db;
  /** Aborted when the job is cancelled or its lease is lost: handlers check it between units of work. */
  signal: AbortSignal;
  /** Runs first in every transaction the job writes in: the write commits only while the job is still ours. */
  fence: Fence;
  progress(fraction: number, message?: string): void;
}

export type JobHandler<T extends JobType> = (payload: JobPayload<T>, ctx: JobContext) => Promise<unknown>;
export type JobHandlers = { [T in JobType]?: JobHandler<T> };

export interface WorkerLoopOptions {
  db: Db;
  workerId: string;
  handlers: JobHandlers;
  leaseMs: number;
  heartbeatMs: number;
  pollMs: number;
  /** Stops the loop after the current job. */
  signal: AbortSignal;
  /**
   * Beats on their own thread, so that a busy job cannot make them late (the worker process uses one). Without
   * it, beats are timers on the main thread, which a long computation delays.
   */
  heartbeatThread?: HeartbeatThread;
  log?: (line: string) => void;
}

export class JobCancelled extends Error {
  constructor() {
    super("Job cancelled");
  }
}

/** The worker is shutting down (SIGINT/SIGTERM): the job goes back to the queue as it was, for the next worker. */
export class WorkerStopping extends Error {
  constructor() {
    super("The worker is stopping; the job is handed back to the queue");
  }
}

/** Claims and runs one job if there is one. Returns false when the queue had nothing for this worker. */
export async function runOneJob(
  options: Omit<WorkerLoopOptions, "signal" | "pollMs"> & {
    /** Aborts when the worker shuts down: the job stops at its next check and is handed back, not failed. */
    stopping?: AbortSignal;
  },
): Promise<boolean> {
  const { db, workerId, handlers, leaseMs, heartbeatMs, heartbeatThread, log = () => {} } = options;
  const types = Object.keys(handlers);
  const job = await claim(db, workerId, leaseMs, types);
  if (!job) return false;
  log(`[${workerId}] claimed ${job.type} ${job.id} (attempt ${job.attempts}/${job.maxAttempts})`);

  const abort = new AbortController();
  const stop = () => abort.abort(new WorkerStopping());
  if (options.stopping?.aborted) stop();
  options.stopping?.addEventListener("abort", stop, { once: true });
  let latest: { fraction?: number; message?: string } = {};
  const onBeat = (state: { ownsLease: boolean; cancelRequested: boolean }) => {
    if (!state.ownsLease) abort.abort(new Error("lease lost"));
    else if (state.cancelRequested) abort.abort(new JobCancelled());
  };
  const beats = heartbeatThread
    ? await threadBeats(heartbeatThread, { jobId: job.id, workerId, leaseMs, heartbeatMs }, onBeat)
    : timerBeats((progress) => heartbeat(db, job.id, workerId, leaseMs, progress), heartbeatMs, onBeat);

  try {
    if (!isJobType(job.type)) throw new Error(`Unknown job type "${job.type}"`);
    const handler = handlers[job.type] as JobHandler<typeof job.type> | undefined;
    if (!handler) throw new Error(`This worker has no handler for "${job.type}"`);
    const payload = parsePayload(job.type, job.payload);
    const result = await handler(payload, {
      job,
      db,
      signal: abort.signal,
      // A write refused for a lost lease also stops the job at once.
      fence: fenceFor(job, workerId, () => abort.abort(new Error("lease lost"))),
      progress(fraction, message) {
        latest = { fraction, ...(message !== undefined ? { message } : {}) };
        beats.progress(latest);
      },
    });
    await beats.stop();
    if (abort.signal.aborted && abort.signal.reason instanceof JobCancelled) {
      await markCancelled(db, job, workerId);
      log(`[${workerId}] cancelled ${job.id}`);
    } else if (await complete(db, job, workerId, result, latest.message)) {
      log(`[${workerId}] finished ${job.type} ${job.id}`);
    } else {
      log(`[${workerId}] finished ${job.id} but had lost its lease; result dropped`);
    }
  } catch (error) {
    await beats.stop();
    if (abort.signal.reason instanceof WorkerStopping) {
      const handedBack = await release(db, job, workerId);
      log(
        `[${workerId}] stopping: ${job.type} ${job.id} ${handedBack ? "handed back to the queue" : "had lost its lease"}`,
      );
    } else if (abort.signal.reason instanceof JobCancelled) {
      await markCancelled(db, job, workerId);
      log(`[${workerId}] cancelled ${job.id}`);
    } else {
      const outcome = await fail(db, job, workerId, error);
      log(`[${workerId}] ${job.type} ${job.id} failed (${outcome}): ${(error as Error).message}`);
    }
  }
  options.stopping?.removeEventListener("abort", stop);
  return true;
}

interface Beats {
  /** Records progress; a new message (a new iteration, a new batch) is written at once, not at the next beat. */
  progress(progress: { fraction?: number; message?: string }): void;
  /** Resolves once no beat of this job can happen any more. */
  stop(): Promise<void>;
}

type BeatState = { ownsLease: boolean; cancelRequested: boolean };

async function threadBeats(
  thread: HeartbeatThread,
  job: { jobId: string; workerId: string; leaseMs: number; heartbeatMs: number },
  onBeat: (state: BeatState) => void,
): Promise<Beats> {
  await thread.start(job, { onBeat });
  return { progress: (p) => thread.progress(p), stop: () => thread.stop() };
}

function timerBeats(
  beat: (progress: Progress) => Promise<BeatState>,
  heartbeatMs: number,
  onBeat: (s: BeatState) => void,
): Beats {
  const schedule = new BeatSchedule(async (progress) => {
    const state = await beat(progress).catch(() => null);
    if (state) onBeat(state);
  }, heartbeatMs);
  return { progress: (p) => schedule.progress(p), stop: () => schedule.stop() };
}

/**
 * Runs jobs until the signal aborts; sleeps pollMs when the queue is empty (on PostgreSQL, until a job is
 * enqueued, if that comes first). Never throws on a job's error.
 */
export async function runWorkerLoop(options: WorkerLoopOptions): Promise<void> {
  const { db, signal, pollMs, log = () => {} } = options;
  const url = databaseUrlOf(db);
  const wakeup = url && dialectOf(db) === "postgresql" ? listenForJobs(url) : undefined;
  try {
    while (!signal.aborted) {
      let worked = false;
      try {
        worked = await runOneJob({ ...options, stopping: signal });
      } catch (error) {
        log(`[${options.workerId}] queue error: ${(error as Error).message}`);
      }
      if (!worked && !signal.aborted) await (wakeup ? wakeup.wait(pollMs, signal) : sleep(pollMs, signal));
    }
  } finally {
    await wakeup?.close();
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Throws JobCancelled (or the lease error) when the job should stop: call between units of work. */
export function throwIfStopped(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new JobCancelled();
}
