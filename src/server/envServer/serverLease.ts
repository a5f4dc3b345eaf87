/**
 * Which environment servers of a database are alive: each holds a lease in the Lock table while it runs, renewed
 * every few seconds, and deletes it when it stops. A server killed with -9 leaves its lease behind; it is dead when
 * the lease has run out, or at once when it names this machine and a process that no longer runs. A server that
 * starts with no other live server knows every episode left `live` was left by a dead one.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "../db";
import { logFailure } from "./logFailure";

const PREFIX = "env-server:";
const LEASE_MS = 30_000;
/** The leases of the servers running in this process (tests start several). */
const running = new Set<string>();

interface Holder {
  host: string;
  pid: number;
}

export class ServerLease {
  readonly name = `${PREFIX}${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Db) {}

  /** Takes the lease and renews it until stop(). */
  async start(): Promise<void> {
    running.add(this.name);
    await this.renew();
    this.timer = setInterval(
      () => void this.renew().catch((error) => logFailure("renewing its lease", error)),
      LEASE_MS / 3,
    );
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    const until = new Date(Date.now() + LEASE_MS);
    const holder = JSON.stringify({ host: os.hostname(), pid: process.pid } satisfies Holder);
    await this.db.lock.upsert({
      where: { name: this.name },
      create: { name: this.name, holder, until },
      update: { until },
    });
  }

  /** Whether another environment server on this database is alive now. */
  async othersAlive(): Promise<boolean> {
    const leases = await this.db.lock.findMany({
      where: { name: { startsWith: PREFIX, not: this.name }, until: { gt: new Date() } },
    });
    return leases.some((lease) => alive(lease.name, lease.holder));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    running.delete(this.name);
    await this.db.lock.deleteMany({ where: { name: this.name } }).catch(() => undefined);
  }
}

/** A lease's holder runs, as far as this machine can tell: another machine's is trusted until its lease ends. */
function alive(name: string, holder: string): boolean {
  let parsed: Partial<Holder>;
  try {
    parsed = JSON.parse(holder) as Partial<Holder>;
  } catch {
    return true;
  }
  if (parsed.host !== os.hostname() || typeof parsed.pid !== "number") return true;
  // This process's id: one of its own servers, or an earlier process with the same id (a restarted container's).
  if (parsed.pid === process.pid) return running.has(name);
  try {
    process.kill(parsed.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
