import * as lancedb from "@lancedb/lancedb";
import { describe, expect, it } from "vitest";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { describeEachDatabase } from "../../../tests/helpers/testDb";
import { createDb } from "../db";
import { LanceReplayBuffer } from "./lanceReplayBuffer";
import { TRANSITIONS_TABLE } from "./lanceSchema";
import { reconcile } from "./reconcile";
import { dbAndLanceFixture } from "./storeFixture";
import { indexPendingSteps } from "./syncSteps";
import { lanceIds, stepIds, writeHandSteps } from "./testing";

describeEachDatabase("reconcile", (dialect) => {
  const f = dbAndLanceFixture(dialect);
  const store = f.store;

  describe("reconcile", () => {
    it("removes rows of deleted steps and requeues steps whose row is missing", async () => {
      await writeHandSteps(f.db, 2);
      const s = await store();
      await indexPendingSteps(f.db, s);
      const gone = await f.db.trajectory.findFirstOrThrow({ include: { steps: true } });
      await f.db.trajectory.delete({ where: { id: gone.id } });
      const [lost] = await stepIds(f.db);
      await s.deleteIds([lost!]);

      expect(await reconcile(f.db, s)).toEqual({ removed: gone.steps.length, requeued: 1, duplicated: 0 });
      expect(await f.db.step.count({ where: { indexedAt: null } })).toBe(1);
      await indexPendingSteps(f.db, s);
      expect(await lanceIds(s)).toEqual(await stepIds(f.db));
      expect(await reconcile(f.db, s)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    });

    it("leaves a step with two rows with one", async () => {
      await writeHandSteps(f.db, 2);
      const s = await store();
      await indexPendingSteps(f.db, s);
      const connection = await lancedb.connect(f.lanceDir);
      const table = await connection.openTable(TRANSITIONS_TABLE);
      await table.add(await table.query().limit(3).toArrow());
      table.close();
      connection.close();
      const reopened = await store(); // sees the other writer's rows
      expect((await lanceIds(reopened)).length).toBe((await stepIds(f.db)).length + 3);

      expect(await reconcile(f.db, reopened)).toEqual({ removed: 0, requeued: 0, duplicated: 3 });
      await indexPendingSteps(f.db, reopened);
      expect(await lanceIds(reopened)).toEqual(await stepIds(f.db));
    });
  });

  describe("indexing from two processes at once", () => {
    it("writes every step once (the replay buffer's write lock), where concurrent merge-inserts would add it twice", async () => {
      await writeHandSteps(f.db, 40);
      // A second process: its own database connection and its own LanceDB handle on the same folder.
      const otherDb = await createDb(f.url);
      const embedder = new HashNgramEmbedder();
      const mine = await store(embedder);
      const theirs = await LanceReplayBuffer.open({ dir: f.lanceDir, embedder });
      try {
        const [a, b] = await Promise.all([
          indexPendingSteps(f.db, mine, { batchSize: 16, maintain: false }),
          indexPendingSteps(otherDb, theirs, { batchSize: 16, maintain: false }),
        ]);
        const ids = await lanceIds(mine);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(await stepIds(f.db));
        expect(a.indexed + b.indexed).toBe(ids.length);
      } finally {
        theirs.close();
        await otherDb.$disconnect();
      }
    });
  });
});
