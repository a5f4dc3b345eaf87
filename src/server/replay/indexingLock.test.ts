import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { createDb } from "../db";
import { claim, complete, enqueue, heartbeat } from "../queue/queue";
import { markAllStepsPending } from "./pendingSteps";
import { dbAndLanceFixture } from "./storeFixture";
import { indexPendingSteps } from "./syncSteps";
import { lanceIds, writeHandSteps, writeManySteps } from "./testing";

const f = dbAndLanceFixture();

/** How long another process's queue writes wait for the lock here: far less than any real busy timeout. */
const OTHERS_WAIT_MS = 500;

describe("indexing a large backlog of steps", () => {
  it("lets another connection's queue writes in throughout, even after the indexer's client once found the database busy", async () => {
    const ids = await writeManySteps(f.db, 2_000);
    const s = await f.store();
    await enqueue(f.db, "index", {});
    const job = await claim(f.db, "worker", 60_000);
    if (!job) throw new Error("no job to claim");
    // The worker's heartbeat thread: its own connection, which gives up on the lock after OTHERS_WAIT_MS.
    const beats = await createDb(f.url);
    await beats.$queryRawUnsafe(`PRAGMA busy_timeout = ${OTHERS_WAIT_MS}`);
    const refused: string[] = [];
    let batches = 0;
    try {
      const result = await indexPendingSteps(f.db, s, {
        afterWrite: async () => {
          if (++batches !== 2) return;
          // Another process holds the write lock longer than the indexer's client waits (under a CPU profiler,
          // SQLite's wait of 15 s ran out after about 100 ms), so a write of the job on that client, sharing its
          // connection with the indexer, is refused once: a heartbeat, say.
          await f.db.$queryRawUnsafe("PRAGMA busy_timeout = 20");
          const holder = createClient({ url: f.url });
          const lock = await holder.transaction("write");
          await expect(heartbeat(f.db, job.id, "worker", 60_000)).rejects.toThrow("SQLITE_BUSY");
          await lock.rollback();
          holder.close();
        },
        onProgress: async ({ indexed }) => {
          // A beat while the indexer is between batches: no write lock may be left held.
          await heartbeat(beats, job.id, "worker", 60_000, { message: `${indexed} indexed` }).catch(
            (error: Error) => refused.push(`after ${indexed} steps: ${error.message}`),
          );
        },
      });
      expect(result.indexed).toBe(ids.length);
      expect(refused).toEqual([]);
      // What the indexer marked is committed: another connection sees it, and can record the job's outcome.
      expect(await beats.step.count({ where: { indexedAt: null } })).toBe(0);
      expect(await complete(beats, job, "worker", { indexed: result.indexed })).toBe(true);
      expect(await lanceIds(s)).toEqual([...ids].sort());
    } finally {
      await beats.$disconnect();
    }
  });
});

describe("marking every step pending again", () => {
  it("marks them all, a batch at a time, and reports how many", async () => {
    const total = await writeHandSteps(f.db, 3);
    await indexPendingSteps(f.db, await f.store());
    expect(await markAllStepsPending(f.db, 5)).toBe(total);
    expect(await f.db.step.count({ where: { indexedAt: { not: null } } })).toBe(0);
    expect(await markAllStepsPending(f.db, 5)).toBe(0);
  });
});
