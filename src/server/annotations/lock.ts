import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";
import { AnnotationError, lockedBy, notFound } from "./errors";

/**
 * One annotator at a time per trace. A lock is a lease (lockedBy, lockExpiresAt) that the open item renews; a lock
 * whose holder went away simply expires. Every change is one compare-and-set UPDATE … WHERE the lock is still
 * free, expired or ours: SQLite serialises writes, so of two annotators racing for a trace exactly one matches.
 * (Prisma's updateMany may read then write, which is not atomic across connections; see the job queue.)
 */

/** Long enough to write a correction, short enough that an abandoned tab frees the trace soon. */
export const LOCK_TTL_MS = 5 * 60_000;

export interface HeldLock {
  id: string;
  lockedBy: string;
  lockExpiresAt: Date;
}

/** Takes the lock, or renews it when already ours. Throws CONFLICT naming the holder while someone else has it. */
export async function takeLock(
  db: Db,
  id: string,
  author: string,
  options: { ttlMs?: number; now?: Date } = {},
): Promise<HeldLock> {
  const now = options.now ?? new Date();
  const until = new Date(now.getTime() + (options.ttlMs ?? LOCK_TTL_MS));
  const won = await db.$executeRaw`
    UPDATE "Annotation" SET "lockedBy" = ${author}, "lockExpiresAt" = ${until}
    WHERE id = ${id}
      AND ("lockedBy" IS NULL OR "lockedBy" = ${author} OR "lockExpiresAt" IS NULL OR "lockExpiresAt" <= ${now})`;
  if (won === 1) return { id, lockedBy: author, lockExpiresAt: until };
  throw (
    (await whyNotOurs(db, id, author, now)) ??
    new AnnotationError("CONFLICT", "The lock on this trace changed hands just now; try again")
  );
}

/** Lets go of the lock if it is ours; someone else's lock is left alone. True when a lock was released. */
export async function releaseLock(db: Db, id: string, author: string): Promise<boolean> {
  const released = await db.$executeRaw`
    UPDATE "Annotation" SET "lockedBy" = NULL, "lockExpiresAt" = NULL WHERE id = ${id} AND "lockedBy" = ${author}`;
  return released === 1;
}

type Reader = Pick<Db, "annotation"> | Pick<Prisma.TransactionClient, "annotation">;

/**
 * Why a compare-and-set on the lock did not match: the trace is missing, someone else holds it, or the caller's own
 * lock is gone. Null when the caller does hold a live lock (so the write failed for another reason).
 */
export async function whyNotOurs(
  db: Reader,
  id: string,
  author: string,
  now: Date,
): Promise<AnnotationError | null> {
  const row = await db.annotation.findUnique({
    where: { id },
    select: { lockedBy: true, lockExpiresAt: true },
  });
  if (!row) return notFound(id);
  const live = row.lockExpiresAt !== null && row.lockExpiresAt > now;
  if (row.lockedBy && live)
    return row.lockedBy === author ? null : lockedBy(row.lockedBy, row.lockExpiresAt!);
  return new AnnotationError(
    "CONFLICT",
    row.lockedBy === author && row.lockExpiresAt
      ? "Your lock on this trace expired; open it again to review it"
      : "You do not hold the lock on this trace; open it to review it",
  );
}
