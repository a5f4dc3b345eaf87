import type { Db } from "../db";

/** The job is no longer this worker's: another claimed it after its lease ran out. Nothing more may be written. */
export class LeaseLost extends Error {
  constructor(jobId: string, workerId: string) {
    super(`job ${jobId} is no longer held by ${workerId} (its lease ran out and another worker claimed it)`);
  }
}

type Executor = Pick<Db, "$executeRaw">;

/**
 * A fencing token check, to run first inside every transaction a job writes in: it passes only while the job is
 * still held by this worker under this claim's token, and it keeps the job from changing hands until the
 * transaction ends: in SQLite it takes the database's write lock, in PostgreSQL the Job row's lock (another
 * worker's reclaim waits for the commit, then finds the lease renewed or still ours). A stale worker's transaction
 * fails and rolls back.
 */
export type Fence = (tx: Executor) => Promise<void>;

/** Whose fence it is: enough for another connection (a writer thread) to check the same claim. */
export interface FenceClaim {
  jobId: string;
  leaseToken: string | null;
  workerId: string;
}

const claims = new WeakMap<Fence, FenceClaim>();

/** The claim a fence from fenceFor checks; undefined for any other fence. */
export function fenceClaimOf(fence: Fence): FenceClaim | undefined {
  return claims.get(fence);
}

export function fenceFor(
  job: { id: string; leaseToken: string | null },
  workerId: string,
  onLost?: () => void,
): Fence {
  const fence: Fence = async (tx) => {
    const held = await tx.$executeRaw`
      UPDATE "Job" SET "heartbeatAt" = "heartbeatAt"
      WHERE id = ${job.id} AND "lockedBy" = ${workerId} AND "leaseToken" = ${job.leaseToken} AND status = 'running'`;
    if (held !== 1) {
      onLost?.();
      throw new LeaseLost(job.id, workerId);
    }
  };
  claims.set(fence, { jobId: job.id, leaseToken: job.leaseToken, workerId });
  return fence;
}
