/**
 * Faults of the machine, not of the job: a full disk, a database that is locked, restarting or out of reach. A job
 * that meets one goes back to the queue to wait it out, without spending an attempt (queue.ts `wait`), so that the
 * run resumes by itself once the cause is gone instead of failing, or being left queued with no job to run it.
 */
import { EnvironmentDown, EpisodeBroken } from "@/core/envs/remote/faults";

const FAULTS: { reason: string; pattern: RegExp }[] = [
  {
    reason: "the disk is full",
    pattern:
      /SQLITE_FULL|database or disk is full|ENOSPC|No space left on device|could not extend file|disk I\/O error|SQLITE_IOERR/i,
  },
  {
    reason: "the database is locked",
    pattern:
      /SQLITE_BUSY|SQLITE_LOCKED|database is locked|database table is locked|could not serialize access|deadlock detected|lock timeout|Unable to start a transaction in the given time|Transaction already closed|P2028/i,
  },
  {
    reason: "the database cannot be reached",
    pattern:
      /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Connection terminated|connection is closed|Can't reach database server|the database system is (starting up|shutting down|in recovery)|terminating connection due to administrator command|too many clients already|server closed the connection unexpectedly/i,
  },
];

/** The error's text with its causes' (Prisma and the drivers wrap the database's own message and code). */
function textOf(error: unknown, depth = 0): string {
  if (depth > 5 || error === null || error === undefined) return "";
  if (typeof error !== "object") return String(error);
  const { message, code, cause } = error as { message?: unknown; code?: unknown; cause?: unknown };
  return [message, code]
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .concat(textOf(cause, depth + 1))
    .join(" ");
}

/** What kind of machine fault the error is ("the disk is full"), or undefined for an error of the job itself. */
export function recoverableFault(error: unknown): string | undefined {
  // A remote environment's own faults say ECONNREFUSED too, but they are not this machine's: the environment has
  // had its time to come back (its registration's downAfterMs), and the run fails naming it.
  if (isEnvironmentFault(error)) return undefined;
  const text = textOf(error);
  return FAULTS.find((f) => f.pattern.test(text))?.reason;
}

/** Waits before a job that met a machine fault is tried again: 1 s, 2 s, 4 s … capped at a minute. */
export function waitMs(waits: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, waits - 1), 60_000);
}

/** An error a remote environment caused (faults.ts in core/envs/remote), also after crossing a thread. */
function isEnvironmentFault(error: unknown): boolean {
  if (error instanceof EnvironmentDown || error instanceof EpisodeBroken) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === "EnvironmentDown" || name === "EpisodeBroken";
}
