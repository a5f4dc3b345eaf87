import { afterEach, beforeEach, expect, it } from "vitest";
import { refuseWrites } from "../../../tests/helpers/refuseWrites";
import { createRunRow } from "../../../tests/helpers/runRow";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import type { Db } from "../db";
import type { HeartbeatThread } from "./heartbeatThread";
import { claim, crashPoint, enqueue, recordLapse } from "./queue";
import { failStuckRuns, STUCK_GRACE_MS, stuckRuns } from "./stuckRuns";
import { type JobHandlers, runOneJob, sleep } from "./worker";

/*
 * What a busy machine does to the queue (issue: chaos on SQLite failed jobs as "crashed 3 times in a row" when
 * live workers lost their leases): a heartbeat thread slow to boot, a worker paused past its lease, and faults of
 * the machine (a full disk, a locked database) that a job should wait out rather than fail for.
 */
const payload = { domain: "shop", policy: "expert", episodes: 1 } as const;

/** A heartbeat thread that takes `bootMs` to be ready, as one does on a loaded machine, and then never beats. */
function slowThread(bootMs: number): HeartbeatThread {
  const ready = sleep(bootMs);
  return {
    whenReady: () => ready,
    start: async () => {
      await ready;
    },
    progress: () => {},
    stop: async () => {},
  } as unknown as HeartbeatThread;
}

describeEachDatabase("the queue on a busy machine", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("claims only once its heartbeat thread is ready, so a slow boot cannot lose the lease", async () => {
    await enqueue(t.db, "collect", payload);
    const other = await t.connectAgain();
    let stolen = false;
    const handlers: JobHandlers = {
      async collect() {
        // While the job runs, another worker looks for dead workers' jobs: this one must not look dead.
        stolen = (await claim(other, "thief", 60_000)) !== null;
        return { ok: true };
      },
    };
    const started = Date.now();
    // A lease of 600 ms and a thread that needs 1.2 s to boot: claiming first would let the lease run out.
    const ran = runOneJob({
      db: t.db,
      workerId: "slow",
      handlers,
      leaseMs: 600,
      heartbeatMs: 200,
      heartbeatThread: slowThread(1_200),
    });
    expect(await ran).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
    expect(stolen).toBe(false);
    expect(await t.db.job.findFirstOrThrow()).toMatchObject({ status: "succeeded", crashes: 0, attempts: 1 });
  });

  /**
   * A job whose worker is paused past its lease (SIGSTOP, or starved of CPU) until `wake`: another worker claims it
   * meanwhile. `done` is the paused worker's runOneJob.
   */
  async function pausedPastLease(): Promise<{ other: Db; wake: () => void; done: Promise<boolean> }> {
    await enqueue(t.db, "collect", payload);
    const other = await t.connectAgain();
    let wake: () => void = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const paused: JobHandlers = {
      async collect(_payload, ctx) {
        await woken;
        await ctx.db.$transaction((tx) => ctx.fence(tx));
        return { ok: true };
      },
    };
    const done = runOneJob({
      db: t.db,
      workerId: "paused",
      handlers: paused,
      leaseMs: 300,
      heartbeatMs: 60_000,
      heartbeatThread: slowThread(0),
    });
    await sleep(500);
    return { other, wake, done };
  }

  it("counts a lease lost by a live worker as a lapse, not a crash", async () => {
    const { other, wake, done } = await pausedPastLease();
    const reclaimed = await claim(other, "next", 60_000);
    expect(reclaimed).toMatchObject({ crashes: 1, crashStreak: 1 });
    wake();
    expect(await done).toBe(true);
    expect(await t.db.job.findFirstOrThrow()).toMatchObject({
      status: "running",
      lockedBy: "next",
      crashes: 0,
      crashStreak: 0,
      lapses: 1,
    });
  });

  it("records the lapse once a full disk that refused it has room again", async () => {
    const { other, wake, done } = await pausedPastLease();
    expect(await claim(other, "next", 60_000)).toMatchObject({ crashes: 1 });
    // The worker wakes to a disk with no room: every write to the job is refused for 1.5 s.
    const allow = await refuseWrites(other, t.dialect, "Job", "UPDATE", "refuse_job_updates");
    wake();
    await sleep(1_500);
    expect(await other.job.findFirstOrThrow()).toMatchObject({ crashes: 1, lapses: 0 });
    await allow();
    expect(await done).toBe(true);
    expect(await t.db.job.findFirstOrThrow()).toMatchObject({ lockedBy: "next", crashes: 0, lapses: 1 });
  });

  it("sends a job that met a full disk or a locked database back to wait, without spending an attempt", async () => {
    const job = await enqueue(t.db, "collect", payload, { maxAttempts: 1 });
    const faults = [
      new Error("Invalid `prisma.trajectory.createMany()` invocation: SqliteError: database or disk is full"),
      new Error("Transaction failed", { cause: { code: "SQLITE_BUSY" } }),
      new Error("connect ECONNREFUSED 127.0.0.1:5432"),
    ];
    for (const [i, fault] of faults.entries()) {
      const handlers: JobHandlers = {
        async collect() {
          throw fault;
        },
      };
      const before = Date.now();
      expect(
        await runOneJob({ db: t.db, workerId: "w", handlers, leaseMs: 10_000, heartbeatMs: 1_000 }),
      ).toBe(true);
      const waiting = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
      expect(waiting).toMatchObject({ status: "queued", attempts: 0, waits: i + 1, lockedBy: null });
      expect(waiting.error).toMatch(
        /^waiting: the (disk is full|database is locked|database cannot be reached), tried again in \d+ s/,
      );
      // 1 s, 2 s, 4 s: the wait grows with each fault in a row.
      expect(waiting.runAt.getTime() - before).toBeGreaterThanOrEqual(1_000 * 2 ** i - 50);
      await t.db.job.update({ where: { id: job.id }, data: { runAt: new Date() } });
    }
    // The cause gone, the job runs and succeeds on its one attempt; its waits start again from nothing.
    const done = await runOneJob({
      db: t.db,
      workerId: "w",
      handlers: { collect: async () => ({ ok: true }) },
      leaseMs: 10_000,
      heartbeatMs: 1_000,
    });
    expect(done).toBe(true);
    expect(await t.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "succeeded",
      attempts: 1,
      waits: 0,
    });
  });

  it("still fails a job for its own errors, and a train job's run with it in the same transaction", async () => {
    const run = await createRunRow(t.db, { status: "queued" });
    await enqueue(t.db, "train", { runId: run.id }, { maxAttempts: 1 });
    const handlers: JobHandlers = {
      async train() {
        throw new Error("the config asks for a domain this worker does not have");
      },
    };
    await runOneJob({ db: t.db, workerId: "w", handlers, leaseMs: 10_000, heartbeatMs: 1_000 });
    expect(await t.db.job.findFirstOrThrow()).toMatchObject({ status: "failed", waits: 0 });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "failed",
      error: "the config asks for a domain this worker does not have",
    });
  });

  it("fails a run left waiting for a job that will never run it, and leaves runs whose job is on its way", async () => {
    const newRun = (name: string, status: string) => createRunRow(t.db, { name, status });
    const stuck = await newRun("stuck", "queued");
    const long = new Date(Date.now() - 2 * STUCK_GRACE_MS);
    await t.db.job.create({
      data: {
        type: "train",
        payload: { runId: stuck.id },
        status: "failed",
        error: "disk full",
        updatedAt: long,
      },
    });
    const justResumed = await newRun("resumed", "queued");
    await t.db.job.create({ data: { type: "train", payload: { runId: justResumed.id }, status: "failed" } });
    const working = await newRun("working", "running");
    await enqueue(t.db, "train", { runId: working.id });

    expect((await stuckRuns(t.db)).map((r) => r.id).sort()).toEqual([stuck.id, justResumed.id].sort());
    expect(await failStuckRuns(t.db)).toBe(1);
    expect(await t.db.run.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({
      status: "failed",
      error: "its train job failed (disk full) but the run was left queued; resume it to go on",
    });
    expect((await t.db.run.findUniqueOrThrow({ where: { id: justResumed.id } })).status).toBe("queued");
    expect((await t.db.run.findUniqueOrThrow({ where: { id: working.id } })).status).toBe("running");
  });

  it("takes back the crash that stopped a job when its worker turns out alive, and queues the job and its run again", async () => {
    const run = await createRunRow(t.db, { status: "running" });
    await enqueue(t.db, "train", { runId: run.id });
    const mine = await claim(t.db, "alive", 300);
    // Two real crashes at this point already; then this worker's beats fail (a full disk) past its lease.
    await t.db.job.update({
      where: { id: mine!.id },
      data: { crashes: 2, crashStreak: 2, crashPoint: crashPoint(mine!) },
    });
    await sleep(400);
    expect(await claim(t.db, "next", 60_000)).toBeNull();
    expect(await t.db.job.findUniqueOrThrow({ where: { id: mine!.id } })).toMatchObject({ status: "failed" });
    expect((await t.db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("failed");

    expect(await recordLapse(t.db, mine!)).toBe(true);
    expect(await t.db.job.findUniqueOrThrow({ where: { id: mine!.id } })).toMatchObject({
      status: "queued",
      crashes: 2,
      crashStreak: 2,
      lapses: 1,
      error: null,
    });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "queued",
      error: null,
    });
    // Once only.
    expect(await recordLapse(t.db, mine!)).toBe(false);
  });
});
