import { createClient } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRunRow } from "../../../tests/helpers/runRow";
import { splitBrainFences } from "../../../tests/helpers/staleFence";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import type { Db } from "../db";
import { fenceFor, LeaseLost } from "./fence";
import { parsePayload } from "./payloads";
import {
  backoffMs,
  CRASHES_AT_ONE_POINT,
  cancel,
  claim,
  complete,
  enqueue,
  fail,
  heartbeat,
  OUTCOME_ATTEMPTS,
} from "./queue";
import { type JobHandlers, runOneJob, runWorkerLoop, sleep, throwIfStopped } from "./worker";

const collectPayload = { domain: "shop", policy: "expert", episodes: 1 } as const;

describeEachDatabase("job queue", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("rejects a payload that does not match its job type, naming the field", async () => {
    await expect(
      enqueue(t.db, "collect", { domain: "Moon base!", policy: "expert", episodes: 1 }),
    ).rejects.toThrow(/Invalid payload for job "collect": domain/);
    expect(await t.db.job.count()).toBe(0);
  });

  it("never runs a job twice with two concurrent worker loops on separate connections", async () => {
    const jobs = 30;
    for (let i = 0; i < jobs; i++) await enqueue(t.db, "collect", { ...collectPayload, seed: i });
    const other = await t.connectAgain();
    const runs: { worker: string; seed: number }[] = [];
    const handlersFor = (worker: string): JobHandlers => ({
      async collect(payload) {
        runs.push({ worker, seed: payload.seed });
        await sleep(2); // let the other loop interleave
        return { ok: true };
      },
    });
    const stop = new AbortController();
    const loops = [
      runWorkerLoop({
        db: t.db,
        workerId: "A",
        handlers: handlersFor("A"),
        leaseMs: 10_000,
        heartbeatMs: 1_000,
        pollMs: 5,
        signal: stop.signal,
      }),
      runWorkerLoop({
        db: other,
        workerId: "B",
        handlers: handlersFor("B"),
        leaseMs: 10_000,
        heartbeatMs: 1_000,
        pollMs: 5,
        signal: stop.signal,
      }),
    ];
    const deadline = Date.now() + 30_000;
    while ((await t.db.job.count({ where: { status: "succeeded" } })) < jobs && Date.now() < deadline)
      await sleep(20);
    stop.abort();
    await Promise.all(loops);

    const seeds = runs.map((r) => r.seed).sort((a, b) => a - b);
    expect(seeds).toEqual(Array.from({ length: jobs }, (_, i) => i));
    expect(new Set(runs.map((r) => r.worker)).size).toBe(2); // both loops really competed
    const done = await t.db.job.findMany();
    expect(done.every((j) => j.status === "succeeded" && j.attempts === 1)).toBe(true);
  });

  it("claims the job due longest ago and returns it as stored", async () => {
    const later = await enqueue(
      t.db,
      "collect",
      { ...collectPayload, seed: 1 },
      { runAt: new Date(Date.now() - 1_000) },
    );
    const first = await enqueue(
      t.db,
      "collect",
      { ...collectPayload, seed: 2 },
      { runAt: new Date(Date.now() - 5_000) },
    );
    const claimed = await claim(t.db, "w", 10_000);
    expect(claimed?.id).toBe(first.id);
    expect(claimed).toEqual(await t.db.job.findUnique({ where: { id: first.id } }));
    expect(claimed).toMatchObject({ status: "running", lockedBy: "w", attempts: 1 });
    expect(claimed?.leaseToken).toEqual(expect.any(String));
    expect((await claim(t.db, "w", 10_000))?.id).toBe(later.id);
    expect(await claim(t.db, "w", 10_000)).toBeNull();
  });

  it("reclaims the job of a worker that died once its lease expires", async () => {
    const job = await enqueue(t.db, "collect", collectPayload);
    const claimed = await claim(t.db, "crashed-worker", 200);
    expect(claimed?.id).toBe(job.id);
    // While the lease holds, nobody else can take it.
    expect(await claim(t.db, "rescuer", 10_000)).toBeNull();
    await sleep(300); // the crashed worker never heartbeats
    const reclaimed = await claim(t.db, "rescuer", 10_000);
    expect(reclaimed?.id).toBe(job.id);
    expect(reclaimed?.lockedBy).toBe("rescuer");
    // Collection is resumable: a dead worker costs it no attempt, only a crash on record.
    expect(reclaimed?.attempts).toBe(1);
    expect(reclaimed?.crashes).toBe(1);
    // The dead worker's late heartbeat tells it that it lost the job.
    expect((await heartbeat(t.db, job.id, "crashed-worker", 10_000)).ownsLease).toBe(false);
  });

  it("claims an import again after its worker died, even on its last attempt (an import is all or nothing)", async () => {
    await enqueue(t.db, "import", { path: "x.jsonl", name: "x.jsonl" }, { maxAttempts: 1 });
    await claim(t.db, "crashed-worker", 50);
    await sleep(100);
    const job = await claim(t.db, "rescuer", 10_000);
    expect(job).toMatchObject({ type: "import", lockedBy: "rescuer", attempts: 1, crashes: 1 });
  });

  it("claims a job again after any number of worker crashes, without spending its attempts", async () => {
    await enqueue(t.db, "train", { runId: "r" }, { maxAttempts: 1 });
    for (let crash = 1; crash <= 5; crash++) {
      const job = await claim(t.db, `worker-${crash}`, 30);
      expect(job?.attempts, `crash ${crash}`).toBe(1);
      // Each worker gets a bit further before it dies.
      await heartbeat(t.db, job!.id, `worker-${crash}`, 30, {
        fraction: crash / 10,
        message: `iteration ${crash}`,
      });
      await sleep(60);
    }
    const job = await claim(t.db, "survivor", 10_000);
    expect(job).toMatchObject({ lockedBy: "survivor", attempts: 1, crashes: 5, crashStreak: 1 });
  });

  it("stops a job that crashes again and again at the same point, saying where, and fails its run", async () => {
    await createRunRow(t.db, { id: "r", status: "running" });
    await enqueue(t.db, "train", { runId: "r" });
    for (let crash = 1; crash <= CRASHES_AT_ONE_POINT; crash++) {
      const job = await claim(t.db, `worker-${crash}`, 30);
      expect(job, `crash ${crash}`).not.toBeNull();
      await heartbeat(t.db, job!.id, `worker-${crash}`, 30, { fraction: 0.4, message: "iteration 4" });
      await sleep(60);
    }
    expect(await claim(t.db, "next", 10_000)).toBeNull();
    const job = await t.db.job.findFirstOrThrow();
    expect(job.status).toBe("failed");
    // Its run does not stay "running" with nothing left to run it.
    const run = await t.db.run.findUniqueOrThrow({ where: { id: "r" } });
    expect(run).toMatchObject({ status: "failed", error: job.error });
    expect(job.error).toBe(
      `train job crashed ${CRASHES_AT_ONE_POINT} times in a row at 40% (iteration 4): its worker died each time (killed, out of memory or a crash in native code); stopped there instead of trying again`,
    );
  });

  it("retries with backoff, then fails with the error kept", async () => {
    const job = await enqueue(t.db, "collect", collectPayload, { maxAttempts: 3 });
    const handlers: JobHandlers = {
      async collect() {
        throw new Error("environment exploded at step 7");
      },
    };
    const opts = { db: t.db, workerId: "w", handlers, leaseMs: 10_000, heartbeatMs: 1_000 };
    expect(await runOneJob(opts)).toBe(true);
    let row = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.status).toBe("queued");
    expect(row.error).toBe("environment exploded at step 7");
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + 1_000); // backing off
    expect(await runOneJob(opts)).toBe(false); // not yet due

    for (let attempt = 2; attempt <= 3; attempt++) {
      await t.db.job.update({ where: { id: job.id }, data: { runAt: new Date(0) } }); // fast-forward the backoff
      expect(await runOneJob(opts)).toBe(true);
    }
    row = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(3);
    expect(row.error).toBe("environment exploded at step 7");
    expect(row.finishedAt).not.toBeNull();
    expect(backoffMs(1)).toBe(2_000);
    expect(backoffMs(3)).toBe(8_000);
    expect(backoffMs(30)).toBe(300_000);
  });

  it("cancels a queued job at once and a running one at its next heartbeat", async () => {
    const queued = await enqueue(t.db, "collect", collectPayload);
    expect((await cancel(t.db, queued.id)).status).toBe("cancelled");
    expect(await claim(t.db, "w", 10_000)).toBeNull();

    const running = await enqueue(t.db, "collect", { ...collectPayload, seed: 9 });
    let units = 0;
    const handlers: JobHandlers = {
      async collect(_payload, ctx) {
        for (;;) {
          throwIfStopped(ctx.signal);
          units++;
          if (units === 3) await cancel(t.db, running.id);
          await sleep(20);
        }
      },
    };
    await runOneJob({ db: t.db, workerId: "w", handlers, leaseMs: 10_000, heartbeatMs: 30 });
    const row = await t.db.job.findUniqueOrThrow({ where: { id: running.id } });
    expect(row.status).toBe("cancelled");
    expect(units).toBeGreaterThanOrEqual(3);
  });

  it("a failed attempt of a worker that lost its lease does not overwrite the new owner", async () => {
    await enqueue(t.db, "collect", collectPayload);
    const first = await claim(t.db, "slow", 50);
    await sleep(100);
    await claim(t.db, "fast", 10_000);
    expect(await fail(t.db, first!, "slow", new Error("late"))).toBe("lost");
    const row = await t.db.job.findFirstOrThrow();
    expect(row.lockedBy).toBe("fast");
    expect(row.status).toBe("running");
  });

  it("fences writes by the lease token: a stale worker's transaction is refused, the new owner's commits", async () => {
    const { stale, current } = await splitBrainFences(
      t.db,
      "collect",
      parsePayload("collect", collectPayload),
    );
    const write = (key: string) => t.db.setting.create({ data: { key, value: 1 } });
    await expect(
      t.db.$transaction(async (tx) => {
        await tx.setting.create({ data: { key: "stale", value: 1 } });
        await stale(tx);
      }),
    ).rejects.toBeInstanceOf(LeaseLost);
    await t.db.$transaction(async (tx) => {
      await current(tx);
      await tx.setting.create({ data: { key: "current", value: 1 } });
    });
    expect((await t.db.setting.findMany()).map((s) => s.key)).toEqual(["current"]);
    await write("after"); // the refused transaction left nothing locked behind
  });

  // PostgreSQL only: SQLite's driver waits for the write lock synchronously, so in one process the waiting claim
  // would block the very thread that has to commit. (On SQLite the fence holds the whole database's write lock.)
  if (dialect === "postgresql")
    it("keeps a job from changing hands while a fenced transaction is open, even past the lease", async () => {
      await enqueue(t.db, "collect", collectPayload);
      const first = await claim(t.db, "slow", 200);
      const other = await t.connectAgain();
      let rescued: Awaited<ReturnType<typeof claim>> | undefined;
      await t.db.$transaction(
        async (tx) => {
          await fenceFor(first!, "slow")(tx);
          await sleep(300); // the lease runs out while the transaction is open
          // The rescuer's claim has to wait for this transaction: the fence holds the Job row's lock.
          const claiming = claim(other, "rescuer", 10_000).then((job) => {
            rescued = job;
          });
          await sleep(200);
          expect(rescued).toBeUndefined();
          await tx.setting.create({ data: { key: "slow", value: 1 } });
          void claiming;
        },
        { timeout: 10_000 },
      );
      const deadline = Date.now() + 10_000;
      while (rescued === undefined && Date.now() < deadline) await sleep(10);
      expect(rescued?.lockedBy).toBe("rescuer");
      expect(await t.db.setting.count({ where: { key: "slow" } })).toBe(1); // written while it was still ours
      await expect(t.db.$transaction((tx) => fenceFor(first!, "slow")(tx))).rejects.toBeInstanceOf(LeaseLost);
    });

  it("claims each job once with eight workers racing for the queue's head", async () => {
    const jobs = 40;
    for (let i = 0; i < jobs; i++) await enqueue(t.db, "collect", { ...collectPayload, seed: i });
    const clients = [t.db, ...(await Promise.all(Array.from({ length: 3 }, () => t.connectAgain())))];
    const claimed: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        const db = clients[w % clients.length]!;
        for (;;) {
          const job = await claim(db, `w${w}`, 10_000);
          if (!job) return;
          claimed.push(job.id);
        }
      }),
    );
    expect(claimed.length).toBe(jobs);
    expect(new Set(claimed).size).toBe(jobs);
  });
});

describeEachDatabase("job pickup", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  // PostgreSQL wakes idle workers with LISTEN/NOTIFY; SQLite has no such signal, and its workers poll.
  const woken = dialect === "postgresql";
  it(
    woken
      ? "wakes an idle worker as soon as a job is enqueued, long before its next poll"
      : "an idle worker finds a job another process enqueued at its next poll",
    async () => {
      const stop = new AbortController();
      const ran: number[] = [];
      const loop = runWorkerLoop({
        db: t.db,
        workerId: "idle",
        handlers: {
          async collect() {
            ran.push(Date.now());
            return {};
          },
        },
        leaseMs: 10_000,
        heartbeatMs: 1_000,
        pollMs: woken ? 60_000 : 300,
        signal: stop.signal,
      });
      await sleep(500); // the loop found nothing and is waiting (listening)
      const other = await t.connectAgain();
      const enqueuedAt = Date.now();
      await enqueue(other, "collect", collectPayload);
      const deadline = Date.now() + 10_000;
      while (ran.length === 0 && Date.now() < deadline) await sleep(10);
      stop.abort();
      await loop;
      expect(ran.length).toBe(1);
      expect(ran[0]! - enqueuedAt).toBeLessThan(2_000);
    },
  );
});

/** SQLite's one write lock: another process may hold it for a moment when a job's outcome is written. */
describe("job outcomes on SQLite's write lock", () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    await db.cleanup();
  });

  it("records a job's outcome through a moment when another process holds the write lock", async () => {
    const job = await enqueue(db.db, "collect", collectPayload);
    const claimed = await claim(db.db, "w", 10_000);
    // This connection gives up on the lock after 20 ms; another process holds it for 50.
    await db.db.$queryRawUnsafe("PRAGMA busy_timeout = 20");
    const holder = createClient({ url: db.url });
    const lock = await holder.transaction("write");
    setTimeout(() => void lock.rollback(), 50);
    try {
      expect(await complete(db.db, claimed!, "w", { episodes: 1 })).toBe(true);
    } finally {
      holder.close();
    }
    expect(await db.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "succeeded",
      result: { episodes: 1 },
    });
  });

  it("says which outcome it could not record when the database stays locked", async () => {
    await enqueue(db.db, "collect", collectPayload, { maxAttempts: 1 });
    const claimed = await claim(db.db, "w", 10_000);
    let tries = 0;
    const locked = {
      $executeRaw: async () => {
        tries++;
        throw new Error("Raw query failed. Code: `5`. Message: `SQLITE_BUSY: database is locked`");
      },
      // The final failure is written with its run's, in one transaction.
      $transaction: (write: (tx: unknown) => Promise<unknown>) => write(locked),
    } as unknown as Db;
    await expect(fail(locked, claimed!, "w", new Error("boom"))).rejects.toThrow(
      `could not record collect job ${claimed!.id} as failed: the database stayed locked through ${OUTCOME_ATTEMPTS} tries`,
    );
    expect(tries).toBe(OUTCOME_ATTEMPTS);
  });
});
