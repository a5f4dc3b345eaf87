import { randomUUID } from "node:crypto";
import { type Job, Prisma } from "@/generated/prisma/client";
import { type Db, isBusyError, retryWhenBusy } from "../db";
import { dialectOf } from "../sql/dialect";
import { waitMs } from "./faults";
import { type JobPayload, type JobType, parsePayload } from "./payloads";

/**
 * A job queue in the database. Every change of ownership is one compare-and-set SQL statement (UPDATE … WHERE
 * the job is still claimable / still ours): SQLite serialises writes, and PostgreSQL locks the row an UPDATE
 * changes until its transaction ends and then checks the WHERE again, so of two workers racing for a job exactly
 * one update matches. (Prisma's updateMany may select then update, which is not atomic across connections, so
 * these statements are written out, once for both databases.) A claim is a lease; a worker that stops
 * heartbeating loses the job. On PostgreSQL a new job is claimed with FOR UPDATE SKIP LOCKED, so that workers
 * racing for the queue's head each take a different job instead of all but one losing, and enqueueing wakes idle
 * workers at once through NOTIFY (wakeup.ts).
 */

/** The channel enqueue notifies on PostgreSQL; idle worker loops LISTEN on it. */
export const JOBS_CHANNEL = "dreamgym_jobs";

export interface EnqueueOptions {
  maxAttempts?: number;
  runAt?: Date;
}

export async function enqueue<T extends JobType>(
  db: Db,
  type: T,
  payload: JobPayload<T> | Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<Job> {
  const job = await addJob(db, type, payload, options);
  await wakeWorkers(db, type);
  return job;
}

/**
 * Writes a row and the job that works on it in one transaction, then wakes the workers: a failure anywhere (a full
 * disk, a busy database) leaves neither, never a row waiting for a job that does not exist. `write` returns the row
 * and the job's payload (which may name the row).
 */
export async function enqueueWith<T extends JobType, R>(
  db: Db,
  type: T,
  write: (tx: Prisma.TransactionClient) => Promise<{ row: R; payload: JobPayload<T> }>,
  options: EnqueueOptions = {},
): Promise<{ row: R; job: Job }> {
  const written = await db.$transaction(async (tx) => {
    const { row, payload } = await write(tx);
    return { row, job: await addJob(tx, type, payload, options) };
  });
  await wakeWorkers(db, type);
  return written;
}

/** The job row alone, for a transaction that writes more around it; `wakeWorkers` once it has committed. */
export function addJob<T extends JobType>(
  db: Db | Prisma.TransactionClient,
  type: T,
  payload: JobPayload<T> | Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<Job> {
  return db.job.create({
    data: {
      type,
      payload: parsePayload(type, payload) as object,
      maxAttempts: options.maxAttempts ?? 3,
      runAt: options.runAt ?? new Date(),
    },
  });
}

/** Wakes idle workers (PostgreSQL; on SQLite they find the job at their next poll). */
export async function wakeWorkers(db: Db, type: string): Promise<void> {
  if (dialectOf(db) === "postgresql") await db.$executeRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${type})`;
}

/** Backoff before the next attempt: 2 s, 4 s, 8 s … capped at 5 minutes. */
export function backoffMs(attempts: number, baseMs = 2_000): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 300_000);
}

function claimable(now: Date) {
  return {
    OR: [
      { status: "queued", runAt: { lte: now }, cancelRequested: false },
      // A running job whose lease ran out belongs to a worker that died.
      { status: "running", leaseUntil: { lt: now } },
    ],
  };
}

export async function claim(
  db: Db,
  workerId: string,
  leaseMs: number,
  types?: readonly string[],
): Promise<Job | null> {
  const now = new Date();
  if (types?.length === 0) return null;
  if (dialectOf(db) === "postgresql") return claimSkippingLocked(db, workerId, leaseMs, types, now);
  const where = { ...claimable(now), ...(types ? { type: { in: [...types] } } : {}) };
  // The job due longest ago first (a retry waits out its backoff, then takes its turn).
  const candidates = await db.job.findMany({ where, orderBy: { runAt: "asc" }, take: 5 });
  for (const candidate of candidates) {
    if (candidate.status === "running") {
      // Its worker died (the lease ran out). Every job type resumes (payloads.ts), so this costs no attempt.
      const reclaimed = await reclaimCrashed(db, candidate, workerId, leaseMs, now);
      if (reclaimed) return reclaimed;
      continue;
    }
    const lease = new Date(now.getTime() + leaseMs);
    const won = await db.$executeRaw`
      UPDATE "Job" SET status = 'running', "lockedBy" = ${workerId}, "leaseUntil" = ${lease}, "heartbeatAt" = ${now},
        "leaseToken" = ${randomUUID()}, attempts = attempts + 1, "startedAt" = COALESCE("startedAt", ${now}), "updatedAt" = ${now}
      WHERE id = ${candidate.id} AND status = 'queued' AND "runAt" <= ${now} AND "cancelRequested" = false`;
    if (won === 1) return db.job.findUniqueOrThrow({ where: { id: candidate.id } });
  }
  return null;
}

/**
 * PostgreSQL's claim, in one statement when the queue has work: the oldest due job is chosen and taken at once,
 * the subquery locking the row it picks and skipping rows that other workers' claims hold, so concurrent claims
 * never queue behind one another (ordered by runAt, which the status-runAt index serves without sorting the
 * queue). A dead worker's job goes first: while one exists the statement takes nothing, and its reclaim (a
 * compare-and-set as on SQLite) follows; only if none can be reclaimed is a queued job taken regardless.
 */
async function claimSkippingLocked(
  db: Db,
  workerId: string,
  leaseMs: number,
  types: readonly string[] | undefined,
  now: Date,
): Promise<Job | null> {
  const queued = await claimQueued(db, workerId, leaseMs, types, now, true);
  if (queued) return queued;
  const dead = await db.job.findMany({
    where: { status: "running", leaseUntil: { lt: now }, ...(types ? { type: { in: [...types] } } : {}) },
    orderBy: { runAt: "asc" },
    take: 5,
  });
  if (dead.length === 0) return null;
  for (const candidate of dead) {
    const reclaimed = await reclaimCrashed(db, candidate, workerId, leaseMs, now);
    if (reclaimed) return reclaimed;
  }
  return claimQueued(db, workerId, leaseMs, types, now, false);
}

async function claimQueued(
  db: Db,
  workerId: string,
  leaseMs: number,
  types: readonly string[] | undefined,
  now: Date,
  unlessDead: boolean,
): Promise<Job | null> {
  const lease = new Date(now.getTime() + leaseMs);
  const ofType = types ? Prisma.sql`AND type IN (${Prisma.join([...types])})` : Prisma.empty;
  const noDead = unlessDead
    ? Prisma.sql`AND NOT EXISTS (
        SELECT 1 FROM "Job" WHERE status = 'running' AND "leaseUntil" < ${now} ${ofType})`
    : Prisma.empty;
  const won = await db.$queryRaw<Job[]>`
    UPDATE "Job" SET status = 'running', "lockedBy" = ${workerId}, "leaseUntil" = ${lease}, "heartbeatAt" = ${now},
      "leaseToken" = ${randomUUID()}, attempts = attempts + 1, "startedAt" = COALESCE("startedAt", ${now}), "updatedAt" = ${now}
    WHERE id = (
      SELECT id FROM "Job"
      WHERE status = 'queued' AND "runAt" <= ${now} AND "cancelRequested" = false ${ofType} ${noDead}
      ORDER BY "runAt" LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  return won[0] ?? null;
}

/** Crashes in a row at one point (same progress and message) after which a resumable job is stopped there. */
export const CRASHES_AT_ONE_POINT = 3;

/** Where a job is, as its crash record names it: "40% (iteration 4)". */
export function crashPoint(job: Pick<Job, "progress" | "message">): string {
  return `${Math.round(job.progress * 1000) / 10}%${job.message ? ` (${job.message})` : ""}`;
}

/**
 * A job whose worker died: claimed again without spending an attempt, unless it keeps dying at the same point,
 * which is then where it fails, with an error that says so (and a train job's run with it).
 */
async function reclaimCrashed(
  db: Db,
  job: Job,
  workerId: string,
  leaseMs: number,
  now: Date,
): Promise<Job | null> {
  const point = crashPoint(job);
  const streak = job.crashPoint === point ? job.crashStreak + 1 : 1;
  if (streak >= CRASHES_AT_ONE_POINT) {
    const error = `${job.type} job crashed ${streak} ${CRASH_STOP} ${point}: its worker died each time (killed, out of memory or a crash in native code); stopped there instead of trying again`;
    const failed = await db.$executeRaw`
      UPDATE "Job" SET status = 'failed', error = ${error}, "lockedBy" = NULL, "leaseUntil" = NULL,
        crashes = crashes + 1, "crashPoint" = ${point}, "crashStreak" = ${streak}, "finishedAt" = ${now}, "updatedAt" = ${now}
      WHERE id = ${job.id} AND status = 'running' AND "leaseUntil" < ${now}`;
    if (failed === 1) await failRunOf(db, job, error, now);
    return null;
  }
  const lease = new Date(now.getTime() + leaseMs);
  const won = await db.$executeRaw`
    UPDATE "Job" SET "lockedBy" = ${workerId}, "leaseUntil" = ${lease}, "heartbeatAt" = ${now}, crashes = crashes + 1,
      "leaseToken" = ${randomUUID()},
      "crashPoint" = ${point}, "crashStreak" = ${streak}, "updatedAt" = ${now}
    WHERE id = ${job.id} AND status = 'running' AND "leaseUntil" < ${now}`;
  return won === 1 ? db.job.findUniqueOrThrow({ where: { id: job.id } }) : null;
}

/**
 * A train job failed by the queue itself (no handler ran to say so) takes its run with it, so the runs page does
 * not show a run as running that nothing will ever run again.
 */
async function failRunOf(db: Pick<Db, "$executeRaw">, job: Job, error: string, now: Date): Promise<void> {
  if (job.type !== "train") return;
  const runId = (job.payload as { runId?: unknown } | null)?.runId;
  if (typeof runId !== "string") return;
  await db.$executeRaw`
    UPDATE "Run" SET status = 'failed', error = ${error}, "finishedAt" = ${now}
    WHERE id = ${runId} AND status IN ('queued', 'running')`;
}

export interface HeartbeatResult {
  /** False when the lease was lost (another worker reclaimed the job): stop working on it. */
  ownsLease: boolean;
  cancelRequested: boolean;
}

export async function heartbeat(
  db: Db,
  jobId: string,
  workerId: string,
  leaseMs: number,
  progress?: { fraction?: number; message?: string },
): Promise<HeartbeatResult> {
  const now = new Date();
  const lease = new Date(now.getTime() + leaseMs);
  const fraction = progress?.fraction !== undefined ? Math.max(0, Math.min(1, progress.fraction)) : null;
  const message = progress?.message !== undefined ? progress.message.slice(0, 500) : null;
  const updated = await db.$executeRaw`
    UPDATE "Job" SET "leaseUntil" = ${lease}, "heartbeatAt" = ${now}, progress = COALESCE(${fraction}, progress),
      message = COALESCE(${message}, message), "updatedAt" = ${now}
    WHERE id = ${jobId} AND "lockedBy" = ${workerId} AND status = 'running'`;
  if (updated !== 1) return { ownsLease: false, cancelRequested: false };
  const job = await db.job.findUnique({ where: { id: jobId }, select: { cancelRequested: true } });
  return { ownsLease: true, cancelRequested: job?.cancelRequested ?? false };
}

/** Tries at a job's final status write: another writer's transient lock must not lose a finished job's outcome. */
export const OUTCOME_ATTEMPTS = 4;

/**
 * Runs a job's final status write (one short compare-and-set UPDATE, so running it again is exact), again when
 * SQLite answers busy; says which outcome was lost when the database stays locked through every try.
 */
async function recordOutcome(job: Job, outcome: string, write: () => Promise<number>): Promise<number> {
  try {
    return await retryWhenBusy(write, OUTCOME_ATTEMPTS);
  } catch (error) {
    if (!isBusyError(error)) throw error;
    throw new Error(
      `could not record ${job.type} job ${job.id} as ${outcome}: the database stayed locked through ${OUTCOME_ATTEMPTS} tries (${(error as Error).message})`,
      { cause: error },
    );
  }
}

export async function complete(
  db: Db,
  job: Job,
  workerId: string,
  result: unknown,
  message?: string,
): Promise<boolean> {
  const now = new Date();
  const updated = await recordOutcome(
    job,
    "succeeded",
    () => db.$executeRaw`
      UPDATE "Job" SET status = 'succeeded', result = ${JSON.stringify(result ?? null)}, progress = 1,
        message = COALESCE(${message?.slice(0, 500) ?? null}, message), "lockedBy" = NULL,
        "leaseUntil" = NULL, "finishedAt" = ${now}, "updatedAt" = ${now}, waits = 0
      WHERE id = ${job.id} AND "lockedBy" = ${workerId} AND status = 'running'`,
  );
  return updated === 1;
}

/**
 * Record a failed attempt: back to the queue after a backoff, or failed for good once attempts run out. A train
 * job failed for good takes its run with it in the same transaction, so that no run is left queued or running
 * with no job to run it.
 */
export async function fail(
  db: Db,
  job: Job,
  workerId: string,
  error: unknown,
): Promise<"retry" | "failed" | "lost"> {
  const message = error instanceof Error ? error.message : String(error);
  const final = job.attempts >= job.maxAttempts;
  const now = new Date();
  const updated = await recordOutcome(job, final ? "failed" : "queued for a retry", () =>
    final
      ? db.$transaction(async (tx) => {
          const failed = await tx.$executeRaw`
            UPDATE "Job" SET status = 'failed', error = ${message}, "lockedBy" = NULL, "leaseUntil" = NULL,
              "finishedAt" = ${now}, "updatedAt" = ${now}
            WHERE id = ${job.id} AND "lockedBy" = ${workerId} AND status = 'running'`;
          if (failed === 1) await failRunOf(tx, job, message, now);
          return failed;
        })
      : db.$executeRaw`
          UPDATE "Job" SET status = 'queued', error = ${message}, "lockedBy" = NULL, "leaseUntil" = NULL,
            "runAt" = ${new Date(now.getTime() + backoffMs(job.attempts))}, "updatedAt" = ${now}
          WHERE id = ${job.id} AND "lockedBy" = ${workerId} AND status = 'running'`,
  );
  if (updated !== 1) return "lost";
  return final ? "failed" : "retry";
}

/**
 * A job that met a fault of the machine (faults.ts: a full disk, a locked or unreachable database) goes back to
 * the queue to wait it out: its attempt is given back, and the wait grows with each fault in a row (waitMs), for as
 * long as the fault lasts. `error` says what it waits for; the job's progress and message stay where it was.
 */
export async function wait(
  db: Db,
  job: Job,
  workerId: string,
  error: unknown,
  reason: string,
): Promise<{ waited: boolean; retryInMs: number }> {
  const message = error instanceof Error ? error.message : String(error);
  const current = await db.job.findUnique({ where: { id: job.id }, select: { waits: true } });
  const retryInMs = waitMs((current?.waits ?? job.waits) + 1);
  const now = new Date();
  const text = `waiting: ${reason}, tried again in ${Math.round(retryInMs / 1000)} s (${message.slice(0, 400)})`;
  const updated = await db.$transaction(async (tx) => {
    const waiting = await tx.$executeRaw`
      UPDATE "Job" SET status = 'queued', error = ${text}, "lockedBy" = NULL, "leaseUntil" = NULL,
        "runAt" = ${new Date(now.getTime() + retryInMs)}, waits = waits + 1,
        attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, "updatedAt" = ${now}
      WHERE id = ${job.id} AND "lockedBy" = ${workerId} AND status = 'running'`;
    // A train job's run says so too: queued, and what it waits for.
    const runId = job.type === "train" ? (job.payload as { runId?: unknown } | null)?.runId : undefined;
    if (waiting === 1 && typeof runId === "string")
      await tx.$executeRaw`
        UPDATE "Run" SET status = 'queued', error = ${text} WHERE id = ${runId} AND status IN ('queued', 'running')`;
    return waiting;
  });
  return { waited: updated === 1, retryInMs };
}

/** Marks the error of a job stopped for crashing at one point (reclaimCrashed), so that a lapse can undo it. */
const CRASH_STOP = "times in a row at";

/**
 * A worker that finds its lease lost while it was alive (paused, starved of CPU past its lease, or its heartbeats
 * refused by a full disk) says so: the reclaim that took the job counted a crash, and this takes it back (a lapse is
 * no sign that the job kills its worker). Only while another claim holds the job, or the crash stopped it, so once
 * per lost lease. Where that crash was the one that stopped the job (CRASHES_AT_ONE_POINT at one point), the job
 * goes back to the queue, and a train job's run with it.
 */
export async function recordLapse(db: Db, job: Job): Promise<boolean> {
  const now = new Date();
  return db.$transaction(async (tx) => {
    const current = await tx.job.findUnique({
      where: { id: job.id },
      select: { status: true, error: true, crashes: true, leaseToken: true, type: true, payload: true },
    });
    if (!current || current.crashes === 0) return false;
    // Stopped for crashing on this worker's own lease: the reclaim that stopped it handed the job to no one.
    const stoppedByIt = current.status === "failed" && (current.error ?? "").includes(CRASH_STOP);
    if (current.leaseToken === job.leaseToken && !stoppedByIt) return false;
    const updated = await tx.$executeRaw`
      UPDATE "Job" SET lapses = lapses + 1, crashes = CASE WHEN crashes > 0 THEN crashes - 1 ELSE 0 END,
        "crashStreak" = CASE WHEN "crashStreak" > 0 THEN "crashStreak" - 1 ELSE 0 END, "updatedAt" = ${now}
      WHERE id = ${job.id} AND crashes > 0 AND status = ${current.status}`;
    if (updated !== 1 || !stoppedByIt) return updated === 1;
    await tx.$executeRaw`
      UPDATE "Job" SET status = 'queued', error = NULL, "finishedAt" = NULL, "runAt" = ${now}
      WHERE id = ${job.id} AND status = 'failed'`;
    const runId =
      current.type === "train" ? (current.payload as { runId?: unknown } | null)?.runId : undefined;
    if (typeof runId === "string")
      await tx.$executeRaw`
        UPDATE "Run" SET status = 'queued', error = NULL, "finishedAt" = NULL
        WHERE id = ${runId} AND status = 'failed' AND error = ${current.error}`;
    return true;
  });
}

/**
 * Hands a job back to the queue at once, as if this attempt had not started (graceful shutdown): the next worker
 * claims it without waiting for the lease to run out, and a resumable job continues from its last checkpoint.
 */
export async function release(db: Db, job: Job, workerId: string): Promise<boolean> {
  const now = new Date();
  const updated = await recordOutcome(
    job,
    "handed back",
    () => db.$executeRaw`
      UPDATE "Job" SET status = 'queued', "lockedBy" = NULL, "leaseUntil" = NULL, "runAt" = ${now},
        attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, "updatedAt" = ${now}
      WHERE id = ${job.id} AND "lockedBy" = ${workerId} AND status = 'running'`,
  );
  if (updated === 1) await wakeWorkers(db, job.type);
  return updated === 1;
}

export async function markCancelled(db: Db, job: Job, workerId: string): Promise<void> {
  const now = new Date();
  await recordOutcome(
    job,
    "cancelled",
    () => db.$executeRaw`
      UPDATE "Job" SET status = 'cancelled', "lockedBy" = NULL, "leaseUntil" = NULL, "finishedAt" = ${now}, "updatedAt" = ${now}
      WHERE id = ${job.id} AND "lockedBy" = ${workerId}`,
  );
}

/** Cancel: a queued job stops at once; a running one is asked to stop and its worker ends it at the next heartbeat. */
export async function cancel(db: Db, jobId: string): Promise<Job> {
  const job = await db.job.findUnique({ where: { id: jobId } });
  if (!job) throw new Error(`No job with id ${jobId}`);
  if (job.status === "queued") {
    const now = new Date();
    await db.$executeRaw`
      UPDATE "Job" SET status = 'cancelled', "cancelRequested" = true, "finishedAt" = ${now}, "updatedAt" = ${now}
      WHERE id = ${jobId} AND status = 'queued'`;
  } else if (job.status === "running") {
    await db.job.update({ where: { id: jobId }, data: { cancelRequested: true } });
  }
  return db.job.findUniqueOrThrow({ where: { id: jobId } });
}
