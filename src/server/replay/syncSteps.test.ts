import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { HAND_CHECKED, HAND_QUERIES } from "@/core/replay/testing";
import { describeEachDatabase } from "../../../tests/helpers/testDb";
import { EMBEDDER_SETTING, readEmbedderSetting } from "./embedderSetting";
import { openReplayBuffer } from "./openReplayBuffer";
import { dbAndLanceFixture } from "./storeFixture";
import { indexPendingSteps, reindex } from "./syncSteps";
import { lanceIds, stepIds, writeHandSteps } from "./testing";

describeEachDatabase("replay buffer sync", (dialect) => {
  const f = dbAndLanceFixture(dialect);
  const store = f.store;

  describe("indexPendingSteps", () => {
    it("writes every pending step to LanceDB, then marks it indexed; a second run has nothing to do", async () => {
      const total = await writeHandSteps(f.db, 3);
      const s = await store();
      const progress: number[] = [];
      const result = await indexPendingSteps(f.db, s, {
        batchSize: 5,
        onProgress: (p) => progress.push(p.indexed),
      });
      expect(result).toMatchObject({ indexed: total, total });
      expect(progress).toEqual([5, 10, 15, 20, 24]);
      expect(await lanceIds(s)).toEqual(await stepIds(f.db));
      expect(await f.db.step.count({ where: { indexedAt: null } })).toBe(0);
      expect((await indexPendingSteps(f.db, s)).indexed).toBe(0);

      // The rows carry the Prisma context: trajectory, task, instruction, source.
      const [top] = await s.similar(HAND_QUERIES[0].query, 1);
      const step = await f.db.step.findUniqueOrThrow({
        where: { id: top!.id },
        include: { trajectory: true },
      });
      expect(top).toMatchObject({
        trajectoryId: step.trajectoryId,
        taskId: "household:train:h-fridge",
        source: "offline",
        instruction: HAND_CHECKED[0]!.instruction,
        runId: null,
        iteration: null,
      });
    });

    it("repairs a crash between the LanceDB write and the Prisma mark: no duplicate, no gap", async () => {
      const total = await writeHandSteps(f.db, 3);
      const s = await store();
      let batches = 0;
      const crash = indexPendingSteps(f.db, s, {
        batchSize: 6,
        afterWrite: () => {
          if (++batches === 2) throw new Error("simulated crash");
        },
      });
      await expect(crash).rejects.toThrow("simulated crash");
      // Two batches reached LanceDB, one was marked.
      expect(await s.count()).toBe(12);
      expect(await f.db.step.count({ where: { indexedAt: { not: null } } })).toBe(6);

      const again = await indexPendingSteps(f.db, s, { batchSize: 6 });
      expect(again.indexed).toBe(total - 6);
      const ids = await lanceIds(s);
      expect(ids).toHaveLength(total);
      expect(new Set(ids).size).toBe(total);
      expect(ids).toEqual(await stepIds(f.db));
      expect(await f.db.step.count({ where: { indexedAt: null } })).toBe(0);
    });

    it("stops between batches when aborted", async () => {
      await writeHandSteps(f.db, 2);
      const s = await store();
      const controller = new AbortController();
      const run = indexPendingSteps(f.db, s, {
        batchSize: 4,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      });
      await expect(run).rejects.toThrow();
      expect(await f.db.step.count({ where: { indexedAt: { not: null } } })).toBe(4);
    });
  });

  describe("the embedder that built the buffer", () => {
    it("is recorded, and a different one is refused until a reindex, after which every step is there", async () => {
      const total = await writeHandSteps(f.db, 2);
      const first = await store();
      await indexPendingSteps(f.db, first);
      expect(await readEmbedderSetting(f.db)).toEqual({ id: "hash-ngram-v1-256", dimension: 256 });
      f.close(first);

      const small = new HashNgramEmbedder(128);
      await expect(openReplayBuffer({ lancedbDir: f.lanceDir, embedder: small, db: f.db })).rejects.toThrow(
        "the replay buffer was built with embedder hash-ngram-v1-256 (dim 256) but the configured embedder is " +
          "hash-ngram-v1-128 (dim 128); run `npm run cli -- reindex`",
      );

      const result = await reindex(f.db, { lancedbDir: f.lanceDir, embedder: small, batchSize: 7 });
      expect(result.indexed).toBe(total);
      expect(await readEmbedderSetting(f.db)).toEqual({ id: "hash-ngram-v1-128", dimension: 128 });
      const rebuilt = await store(small);
      expect(await lanceIds(rebuilt)).toEqual(await stepIds(f.db));
      const [top] = await rebuilt.similar(HAND_QUERIES[2].query, 1);
      expect(top?.action).toBe("click[buy now]");
      expect((await rebuilt.vectorOf(top!.id))?.length).toBe(128);
    });

    it("marks every step pending again when the LanceDB folder is lost", async () => {
      const total = await writeHandSteps(f.db, 1);
      const first = await store();
      await indexPendingSteps(f.db, first);
      f.close(first);
      fs.rmSync(f.lanceDir, { recursive: true, force: true });

      const fresh = await store();
      expect(fresh.created).toBe(true);
      expect(await f.db.step.count({ where: { indexedAt: null } })).toBe(total);
      await indexPendingSteps(f.db, fresh);
      expect(await lanceIds(fresh)).toEqual(await stepIds(f.db));
      expect(await f.db.setting.findUnique({ where: { key: EMBEDDER_SETTING } })).not.toBeNull();
    });
  });
});
