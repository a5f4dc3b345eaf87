import type { Job } from "@/generated/prisma/client";
import { type Db, databaseUrlOf } from "../db";
import { dialectOf } from "../sql/dialect";
import { BeatSchedule, type Progress } from "./beatSchedule";
import { recoverableFault, waitMs } from "./faults";
import { type Fence, fenceFor } from "./fence";
import type { HeartbeatThread } from "./heartbeatThread";
import { isJobType, type JobPayload, type JobType, parsePayload } from "./payloads";
import { claim, complete, fail, heartbeat, markCancelled, recordLapse, release, wait } from "./queue";
import { failStuckRuns } from "./stuckRuns";
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
  // A claim starts the lease's clock: the thread that renews it must be running first (it boots in seconds on a
  // busy machine, longer than a short lease).
  await heartbeatThread?.whenReady();
  const job = await claim(db, workerId, leaseMs, types);
  if (!job) return false;
  log(`[${workerId}] claimed ${job.type} ${job.id} (attempt ${job.attempts}/${job.maxAttempts})`);

  const abort = new AbortController();
  const stop = () => abort.abort(new WorkerStopping());
  if (options.stopping?.aborted) stop();
  options.stopping?.addEventListener("abort", stop, { once: true });
  let latest: { fraction?: number; message?: string } = {};
  /** Whether another worker took the job from this one (its lease ran out): a lapse, recorded at the end. */
  let lost = false;
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
      lost = true;
    }
  } catch (error) {
    const fault =
      abort.signal.reason instanceof WorkerStopping || abort.signal.reason instanceof JobCancelled
        ? undefined
        : recoverableFault(error);
    if (fault) {
      // Beats go on until the job is back in the queue: the wait is written while the lease still holds.
      const waited = await waitOut(db, job, workerId, error, fault, options.stopping);
      await beats.stop();
      // Not ours any more by the time the wait could be written: another worker took it while beats failed too.
      if (waited && !waited.waited) lost = true;
      log(
        waited?.waited
          ? `[${workerId}] ${job.type} ${job.id} waits: ${fault}; tried again in ${Math.round(waited.retryInMs / 1000)} s (${(error as Error).message})`
          : waited
            ? `[${workerId}] ${job.type} ${job.id}: ${fault}; another worker took the job meanwhile`
            : `[${workerId}] ${job.type} ${job.id}: ${fault}, and the wait could not be recorded (${(error as Error).message}); its lease will run out`,
      );
    } else {
      await beats.stop();
      if (abort.signal.reason instanceof WorkerStopping) {
        const handedBack = await release(db, job, workerId);
        log(
          `[${workerId}] stopping: ${job.type} ${job.id} ${handedBack ? "handed back to the queue" : "had lost its lease"}`,
        );
        if (!handedBack) lost = true;
      } else if (abort.signal.reason instanceof JobCancelled) {
        await markCancelled(db, job, workerId);
        log(`[${workerId}] cancelled ${job.id}`);
      } else {
        const outcome = await fail(db, job, workerId, error);
        log(`[${workerId}] ${job.type} ${job.id} failed (${outcome}): ${(error as Error).message}`);
        if (outcome === "lost") lost = true;
      }
    }
  }
  // The lapse is a write like any other: a full disk or a held lock refuses it for a while, and a lapse not
  // recorded leaves a crash counted against a job that never crashed its worker.
  if (lost && (await throughFaults(() => recordLapse(db, job), options.stopping)))
    log(
      `[${workerId}] ${job.type} ${job.id}: its lease ran out while this worker was alive; not counted as a crash`,
    );
  options.stopping?.removeEventListener("abort", stop);
  return true;
}

/**
 * Records that the job waits out a machine fault. The record is a write, which the same fault may refuse (a disk
 * with no byte left); the heartbeat keeps the lease meanwhile where it can. Undefined when the worker stops first
 * or another error comes.
 */
function waitOut(
  db: Db,
  job: Job,
  workerId: string,
  error: unknown,
  fault: string,
  stopping?: AbortSignal,
): Promise<{ waited: boolean; retryInMs: number } | undefined> {
  return throughFaults(() => wait(db, job, workerId, error, fault), stopping);
}

/**
 * A write tried again, further apart each time, for as long as a machine fault (a full disk, a locked database)
 * refuses it. Undefined when the worker stops first or an error of another kind comes.
 */
async function throughFaults<T>(write: () => Promise<T>, stopping?: AbortSignal): Promise<T | undefined> {
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (writeError) {
      if (!recoverableFault(writeError) || stopping?.aborted) return undefined;
      await sleep(waitMs(tries), stopping);
    }
  }
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

/** How often a worker loop looks for runs that no job will run (stuckRuns.ts). */
const STUCK_SWEEP_MS = 60_000;

/**
 * Runs jobs until the signal aborts; sleeps pollMs when the queue is empty (on PostgreSQL, until a job is
 * enqueued, if that comes first). Never throws on a job's error.
 */
export async function runWorkerLoop(options: WorkerLoopOptions): Promise<void> {
  const { db, signal, pollMs, log = () => {} } = options;
  const url = databaseUrlOf(db);
  const wakeup = url && dialectOf(db) === "postgresql" ? listenForJobs(url) : undefined;
  let sweptAt = 0;
  try {
    while (!signal.aborted) {
      if (Date.now() - sweptAt >= STUCK_SWEEP_MS) {
        sweptAt = Date.now();
        const failed = await failStuckRuns(db).catch((error) => {
          log(`[${options.workerId}] could not look for stuck runs: ${(error as Error).message}`);
          return 0;
        });
        if (failed > 0) log(`[${options.workerId}] failed ${failed} run(s) that no job would ever run`);
      }
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
