import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "./db";

export interface LockOptions {
  /** How long the lease lasts without renewal: a holder that died blocks others this long at most. */
  leaseMs?: number;
  /** How often a waiting process asks again. */
  pollMs?: number;
  signal?: AbortSignal;
}

export class LockLost extends Error {
  constructor(name: string) {
    super(
      `lost the "${name}" lock: its lease ran out while this process held it, and another process took it`,
    );
  }
}

/**
 * Runs `work` while this process alone holds the named lock, waiting for it as long as another holds it. For
 * work between processes that no database transaction can fence (LanceDB's merge-insert adds a row twice when two
 * processes insert the same id at once). The lease is renewed while `work` runs; if it is lost anyway (a process
 * paused longer than the lease), `work`'s signal aborts with LockLost.
 */
export async function withLock<T>(
  db: Db,
  name: string,
  work: (signal: AbortSignal) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const leaseMs = options.leaseMs ?? 10_000;
  const pollMs = options.pollMs ?? 150;
  const holder = `${os.hostname()}:${process.pid}:${randomUUID()}`;
  while (!(await tryAcquire(db, name, holder, leaseMs))) {
    options.signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const lost = new AbortController();
  const onAbort = () => lost.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const renewal = setInterval(() => {
    renew(db, name, holder, leaseMs).then(
      (held) => {
        if (!held) lost.abort(new LockLost(name));
      },
      () => {}, // a failed renewal is retried at the next tick; the lease is three ticks long
    );
  }, leaseMs / 3);
  try {
    return await work(lost.signal);
  } finally {
    clearInterval(renewal);
    options.signal?.removeEventListener("abort", onAbort);
    await db.$executeRaw`DELETE FROM "Lock" WHERE name = ${name} AND holder = ${holder}`;
  }
}

async function tryAcquire(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const until = new Date(now.getTime() + leaseMs);
  // One statement: of two processes racing for a free or expired lock, exactly one row change happens.
  const changed = await db.$executeRaw`
    INSERT INTO "Lock" (name, holder, until, "updatedAt") VALUES (${name}, ${holder}, ${until}, ${now})
    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until, "updatedAt" = excluded."updatedAt"
    WHERE "Lock".until < ${now}`;
  return changed === 1;
}

async function renew(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const changed = await db.$executeRaw`
    UPDATE "Lock" SET until = ${new Date(now.getTime() + leaseMs)}, "updatedAt" = ${now}
    WHERE name = ${name} AND holder = ${holder}`;
  return changed === 1;
}
