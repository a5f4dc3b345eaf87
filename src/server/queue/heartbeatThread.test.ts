import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { HeartbeatThread } from "./heartbeatThread";
import { claim, enqueue } from "./queue";
import { type JobHandlers, runOneJob } from "./worker";

let t: TestDb;
let thread: HeartbeatThread | undefined;
describeEachDatabase("heartbeat thread", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await thread?.close();
    thread = undefined;
    await t.cleanup();
  });

  /** Keeps the main thread computing, as a CPU-bound rollout without a single await would. */
  function compute(ms: number): void {
    const until = Date.now() + ms;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
  }

  const HEARTBEAT_MS = 150;
  const BLOCK_MS = 2_000;

  describe("the lease heartbeat", () => {
    it("keeps its schedule on its own thread while the main thread computes for seconds", async () => {
      thread = new HeartbeatThread(t.url);
      await enqueue(t.db, "collect", { domain: "shop", policy: "expert", episodes: 1 });
      const job = await claim(t.db, "w", 1_000, ["collect"]);
      expect(job).not.toBeNull();
      const beats: { at: number; ownsLease: boolean }[] = [];
      await thread.start(
        { jobId: job!.id, workerId: "w", leaseMs: 1_000, heartbeatMs: HEARTBEAT_MS },
        { onBeat: (b) => beats.push(b) },
      );
      const started = Date.now();
      compute(BLOCK_MS);
      const ended = Date.now();
      // The beats' messages wait for the main thread; their times say when the thread renewed the lease.
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 2));
      await thread.stop();
      const during = beats.filter((b) => b.at >= started && b.at <= ended);
      expect(during.length).toBeGreaterThanOrEqual(Math.floor(BLOCK_MS / HEARTBEAT_MS) - 3);
      expect(during.every((b) => b.ownsLease)).toBe(true);
      const gaps = during.slice(1).map((b, i) => b.at - during[i]!.at);
      expect(Math.max(...gaps)).toBeLessThan(HEARTBEAT_MS * 3);
      // The 1 s lease never lapsed although the main thread was busy for 2 s.
      const row = await t.db.job.findUniqueOrThrow({ where: { id: job!.id } });
      expect(row.lockedBy).toBe("w");
      expect(row.leaseUntil!.getTime()).toBeGreaterThan(ended);
    }, 30_000);

    it("lets a job that computes past its lease finish as the lease's owner", async () => {
      thread = new HeartbeatThread(t.url);
      await enqueue(t.db, "collect", { domain: "shop", policy: "expert", episodes: 1 });
      const other = await t.connectAgain();
      let stolen: unknown = "not tried";
      const handlers: JobHandlers = {
        async collect(_payload, ctx) {
          compute(BLOCK_MS);
          // Another worker looks for work right after: the 1 s lease is still held, so it finds none.
          stolen = await claim(other, "w2", 1_000, ["collect"]);
          // Let the queued beats arrive: none of them says the lease was lost.
          await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 2));
          return { aborted: ctx.signal.aborted };
        },
      };
      const ran = await runOneJob({
        db: t.db,
        workerId: "w",
        handlers,
        leaseMs: 1_000,
        heartbeatMs: HEARTBEAT_MS,
        heartbeatThread: thread,
      });
      expect(ran).toBe(true);
      const row = await t.db.job.findFirstOrThrow();
      expect(row.status).toBe("succeeded");
      expect(row.result).toEqual({ aborted: false });
      expect(stolen).toBeNull();
    }, 30_000);

    it("on the main thread (no heartbeat thread) beats wait for the computation: the case the thread exists for", async () => {
      await enqueue(t.db, "collect", { domain: "shop", policy: "expert", episodes: 1 });
      const beatsAt: number[] = [];
      const handlers: JobHandlers = {
        async collect() {
          const watch = setInterval(async () => {
            const row = await t.db.job.findFirstOrThrow();
            if (row.heartbeatAt) beatsAt.push(row.heartbeatAt.getTime());
          }, HEARTBEAT_MS / 3);
          await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 2));
          const started = Date.now();
          compute(BLOCK_MS);
          const ended = Date.now();
          await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 2));
          clearInterval(watch);
          return { started, ended };
        },
      };
      await runOneJob({ db: t.db, workerId: "w", handlers, leaseMs: 60_000, heartbeatMs: HEARTBEAT_MS });
      const row = await t.db.job.findFirstOrThrow();
      const { started, ended } = row.result as { started: number; ended: number };
      expect(beatsAt.filter((at) => at > started + HEARTBEAT_MS && at < ended)).toEqual([]);
    }, 30_000);
  });
});
