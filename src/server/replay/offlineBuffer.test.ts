import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Embedder } from "@/core/replay/embedder";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { type CollectOptions, collectOffline } from "../collect/collectOffline";
import { offlineBuffer } from "./offlineBuffer";
import { writeHandSteps } from "./testing";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

/** The hash embedder, keeping every text it was asked to embed. */
class RecordingEmbedder implements Embedder {
  readonly texts: string[] = [];
  private readonly inner = new HashNgramEmbedder(64);
  readonly id = this.inner.id;
  readonly dimension = this.inner.dimension;

  embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return this.inner.embed(texts);
  }
}

describe("the run's offline buffer", () => {
  it("embeds the domain's offline steps, and its queries, with the embedder it is given", async () => {
    await writeHandSteps(t.db, 2);
    const embedder = new RecordingEmbedder();
    const buffer = await offlineBuffer(t.db, "household", embedder);
    const offline = await t.db.step.count({
      where: { trajectory: { domain: "household", source: "offline" } },
    });
    expect(buffer.size).toBe(offline);
    expect(embedder.texts).toHaveLength(offline);

    const [top] = await buffer.similar(
      { domain: "household", state: "You open the fridge 1.", action: "open fridge 1" },
      1,
    );
    expect(embedder.texts).toHaveLength(offline + 1);
    expect(top?.domain).toBe("household");
  });

  it("says how to get offline data when the domain has none", async () => {
    await expect(offlineBuffer(t.db, "shop", new HashNgramEmbedder())).rejects.toThrow(
      'no offline transitions for domain "shop"',
    );
  });

  it("adds the same rows in the same order whatever order the database was filled in", async () => {
    const collections: CollectOptions[] = [
      { domain: "shop", policy: "expert", episodes: 3, split: "train", epsilon: 0, seed: 1, offset: 0 },
      { domain: "shop", policy: "random", episodes: 3, split: "train", epsilon: 1, seed: 2, offset: 3 },
    ];
    const other = await createTestDb();
    try {
      for (const options of collections) await collectOffline(t.db, options);
      for (const options of collections.toReversed()) await collectOffline(other.db, options);
      const [mine, theirs] = [new RecordingEmbedder(), new RecordingEmbedder()];
      await offlineBuffer(t.db, "shop", mine);
      await offlineBuffer(other.db, "shop", theirs);
      expect(mine.texts.length).toBeGreaterThan(6);
      expect(theirs.texts).toEqual(mine.texts);
    } finally {
      await other.cleanup();
    }
  });

  it("leaves out the logs of held-out test tasks, which runs are evaluated on", async () => {
    await collectOffline(t.db, {
      domain: "shop",
      policy: "expert",
      episodes: 2,
      split: "train",
      epsilon: 0,
      seed: 1,
      offset: 0,
    });
    const train = await t.db.step.count({ where: { trajectory: { domain: "shop" } } });
    await collectOffline(t.db, {
      domain: "shop",
      policy: "expert",
      episodes: 2,
      split: "test",
      epsilon: 0,
      seed: 1,
      offset: 0,
    });
    expect(await t.db.step.count({ where: { trajectory: { domain: "shop" } } })).toBeGreaterThan(train);
    const buffer = await offlineBuffer(t.db, "shop", new HashNgramEmbedder());
    expect(buffer.size).toBe(train);
    expect([...buffer.transitions()].every((x) => x.taskId?.startsWith("shop:train:"))).toBe(true);
  });
});
