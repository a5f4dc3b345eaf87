import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { HAND_CHECKED, HAND_QUERIES } from "@/core/replay/testing";
import type { Transition } from "@/core/types";
import { EmbedderMismatchError, LanceReplayBuffer } from "./lanceReplayBuffer";
import { manyTransitions } from "./testing";

const dirs: string[] = [];
const stores: LanceReplayBuffer[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-lance-"));
  dirs.push(dir);
  return dir;
}

async function open(
  dir = tempDir(),
  embedder = new HashNgramEmbedder(),
  ann: Parameters<typeof LanceReplayBuffer.open>[0]["ann"] = {},
) {
  const store = await LanceReplayBuffer.open({ dir, embedder, ann });
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("LanceReplayBuffer", () => {
  it("finds the obvious neighbour first, scores descending, k respected, rows round-trip", async () => {
    const store = await open();
    await store.add(HAND_CHECKED);
    for (const { expected, query } of HAND_QUERIES) {
      const found = await store.similar(query, 3);
      expect(found[0]?.id, `query for ${expected}`).toBe(expected);
      expect(found).toHaveLength(3);
      expect(found.every((d) => d.domain === query.domain)).toBe(true);
      const scores = found.map((d) => d.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores[0]).toBeGreaterThan(0.6);
    }
    const [first] = await store.similar(HAND_QUERIES[0].query, 1);
    const original = HAND_CHECKED.find((t) => t.id === "h-fridge")!;
    expect(first).toMatchObject({ ...original, trajectoryId: "", runId: null, iteration: null });
    expect(await store.similar(HAND_QUERIES[0].query, 50)).toHaveLength(4);
  });

  it("agrees with exact cosine on the scores", async () => {
    const embedder = new HashNgramEmbedder();
    const store = await open(tempDir(), embedder);
    await store.add(HAND_CHECKED);
    const { query } = HAND_QUERIES[2];
    const found = await store.similar(query, 4);
    const { MemoryReplayBuffer } = await import("@/core/replay/memoryBuffer");
    const memory = new MemoryReplayBuffer(embedder);
    await memory.add(HAND_CHECKED);
    const expected = await memory.similar(query, 4);
    expect(found.map((d) => d.id)).toEqual(expected.map((d) => d.id));
    found.forEach((d, i) => {
      expect(d.score).toBeCloseTo(expected[i]!.score, 5);
    });
  });

  it("filters by domain, source, excluded ids and excluded tasks", async () => {
    const store = await open();
    await store.add([
      ...HAND_CHECKED,
      { ...HAND_CHECKED[0]!, id: "no-task", taskId: undefined } as Transition,
    ]);
    const { query } = HAND_QUERIES[1];
    const offline = await store.similar(query, 8, { sources: ["offline"] });
    expect(offline.map((d) => d.id).sort()).toEqual(["h-cabinet", "h-fridge", "no-task"]);
    const synthetic = await store.similar(query, 8, { sources: ["synthetic", "real"] });
    expect(synthetic.map((d) => d.id).sort()).toEqual(["h-apple", "h-microwave"]);
    expect(await store.similar(query, 8, { sources: [] })).toEqual([]);
    const without = await store.similar(query, 8, { excludeIds: ["h-apple", "it's-quoted"] });
    expect(without.map((d) => d.id)).not.toContain("h-apple");
    expect(without).toHaveLength(4);
    const withoutTask = await store.similar(query, 8, { excludeTaskIds: ["household:train:h-apple"] });
    expect(withoutTask.map((d) => d.id).sort()).toEqual(["h-cabinet", "h-fridge", "h-microwave", "no-task"]);
    const shop = await store.similar({ ...HAND_QUERIES[2].query }, 8);
    expect(shop.map((d) => d.domain)).toEqual(["shop", "shop", "shop", "shop"]);
    expect(await store.count({ domain: "shop" })).toBe(4);
  });

  it("adds idempotently: the same ids twice leave one row each, with the last values", async () => {
    const store = await open();
    await store.add(HAND_CHECKED);
    await store.add(HAND_CHECKED.map((t) => ({ ...t, reward: 1 })));
    await store.add([HAND_CHECKED[0]!, { ...HAND_CHECKED[0]!, reward: 0.5 }]);
    expect(await store.count()).toBe(HAND_CHECKED.length);
    const ids: string[] = [];
    for await (const batch of store.ids()) ids.push(...batch);
    expect(ids.sort()).toEqual(HAND_CHECKED.map((t) => t.id).sort());
    const [fridge] = await store.similar(HAND_QUERIES[0].query, 1);
    expect(fridge?.reward).toBe(0.5);
    expect(await store.existingIds(["h-fridge", "nope"])).toEqual(new Set(["h-fridge"]));
    expect((await store.vectorOf("h-fridge"))?.length).toBe(256);
    expect(await store.vectorOf("nope")).toBeUndefined();
  });

  it("refuses to open a table built by another embedder", async () => {
    const dir = tempDir();
    (await open(dir)).close();
    stores.length = 0;
    await expect(LanceReplayBuffer.open({ dir, embedder: new HashNgramEmbedder(128) })).rejects.toThrow(
      EmbedderMismatchError,
    );
    await expect(LanceReplayBuffer.open({ dir, embedder: new HashNgramEmbedder(128) })).rejects.toThrow(
      "the replay buffer was built with embedder hash-ngram-v1-256 (dim 256) but the configured embedder is " +
        "hash-ngram-v1-128 (dim 128); run `npm run cli -- reindex`",
    );
    expect(await LanceReplayBuffer.builtWith(dir)).toEqual({ id: "hash-ngram-v1-256", dimension: 256 });
  });

  it("builds the ANN and scalar indices once the table is big enough, then keeps them up to date", async () => {
    const store = await open(tempDir(), new HashNgramEmbedder(), {
      minRows: 600,
      rowsPerPartition: 300,
      numSubVectors: 16,
      maxUnindexedFraction: 0.1,
      retrainGrowth: 3,
    });
    await store.add(manyTransitions(500));
    expect(await store.maintain()).toMatchObject({ built: false });
    expect(await store.annIndex()).toBeUndefined();

    await store.add([...manyTransitions(300, "n"), ...HAND_CHECKED]);
    const report = await store.maintain();
    expect(report).toMatchObject({ rows: 808, built: true, retrained: false });
    expect(report.scalarIndices.sort()).toEqual(["domain_bitmap", "id_btree", "source_bitmap"]);
    expect(await store.annIndex()).toMatchObject({ trainedRows: 808, indexedRows: 808, unindexedRows: 0 });
    for (const { expected, query } of HAND_QUERIES) {
      const found = await store.similar(query, 3, { sources: ["offline", "synthetic", "real"] });
      expect(found[0]?.id, `query for ${expected}`).toBe(expected);
    }

    // A filter that leaves fewer than k rows among the ANN candidates falls back to the prefilter.
    const real = await store.similar(HAND_QUERIES[0].query, 3, { sources: ["real"] });
    expect(real.map((d) => d.id)).toEqual(["h-microwave"]);
    const synthetic = await store.similar(HAND_QUERIES[0].query, 8, { sources: ["synthetic"] });
    expect(synthetic).toHaveLength(8);
    expect(synthetic.every((d) => d.source === "synthetic")).toBe(true);

    // New rows are searched exactly until they pass the unindexed share, then folded into the index.
    await store.add(manyTransitions(50, "o"));
    expect(await store.maintain()).toMatchObject({ built: false, retrained: false, optimized: false });
    const [found] = await store.similar({ domain: "household", ...textOf(manyTransitions(50, "o")[7]!) }, 1);
    expect(found?.id).toBe("o-7");
    await store.add(manyTransitions(100, "p"));
    expect(await store.maintain()).toMatchObject({ optimized: true });
    expect(await store.annIndex()).toMatchObject({ trainedRows: 808, unindexedRows: 0 });

    // Grown by the retrain factor: new partitions for the new size.
    await store.add(manyTransitions(1_500, "q"));
    expect(await store.maintain()).toMatchObject({ retrained: true });
    expect(await store.annIndex()).toMatchObject({ trainedRows: 2_458, unindexedRows: 0 });
    expect(await store.count()).toBe(2_458);
  });
});

function textOf(t: Transition) {
  return { instruction: t.instruction, state: t.state.text, action: t.action };
}
