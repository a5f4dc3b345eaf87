import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { bufferRouter } from "../api/routers/buffer";
import { signedIn } from "../api/testing";
import { createCallerFactory } from "../api/trpc";
import { forgetReplayBuffer } from "./sharedReplayBuffer";
import { indexPending, rebuildIndex } from "./syncSteps";
import { tempLanceDir, writeHandSteps } from "./testing";

let t: TestDb;
let lance: ReturnType<typeof tempLanceDir>;
const createCaller = createCallerFactory(bufferRouter);

beforeAll(async () => {
  lance = tempLanceDir();
  // config() reads this on first use, which is inside getReplayBuffer.
  process.env.LANCEDB_DIR = lance.dir;
  t = await createTestDb();
  await writeHandSteps(t.db, 2);
});

afterAll(async () => {
  await forgetReplayBuffer();
  await t.cleanup();
  lance.cleanup();
});

describe("bufferRouter", () => {
  it("reports pending steps before indexing, and rows, embedder and index after", async () => {
    const caller = createCaller(signedIn(t.db));
    const before = await caller.stats();
    expect(before).toMatchObject({
      status: "ok",
      pendingSteps: 16,
      indexedSteps: 0,
      totalRows: 0,
      annIndex: null,
    });

    const progress: number[] = [];
    expect(await indexPending(t.db, { onProgress: (done) => progress.push(done) })).toMatchObject({
      indexed: 16,
    });
    expect(progress.at(-1)).toBe(16);
    const after = await caller.stats();
    expect(after).toMatchObject({
      status: "ok",
      pendingSteps: 0,
      indexedSteps: 16,
      totalRows: 16,
      embedder: { id: "hash-ngram-v1-256", dimension: 256 },
      recordedEmbedder: { id: "hash-ngram-v1-256", dimension: 256 },
      annIndex: null,
    });
    expect(after.rows).toEqual(
      expect.arrayContaining([
        { domain: "household", source: "offline", rows: 4 },
        { domain: "household", source: "synthetic", rows: 2 },
        { domain: "household", source: "real", rows: 2 },
        { domain: "shop", source: "offline", rows: 4 },
        { domain: "shop", source: "synthetic", rows: 4 },
      ]),
    );
  });

  it("lists a step's neighbours, itself excluded, best first, filtered by source", async () => {
    const caller = createCaller(signedIn(t.db));
    const step = await t.db.step.findFirstOrThrow({
      where: { action: "open fridge 1", state: { not: { contains: "visit" } } },
    });
    const { step: self, indexed, neighbours } = await caller.neighbours({ stepId: step.id, k: 3 });
    expect(self.id).toBe(step.id);
    expect(indexed).toBe(true);
    expect(neighbours).toHaveLength(3);
    expect(neighbours.map((n) => n.id)).not.toContain(step.id);
    // The other visit of the same fridge is the obvious neighbour.
    expect(neighbours[0]).toMatchObject({ action: "open fridge 1", domain: "household" });
    const scores = neighbours.map((n) => n.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const synthetic = await caller.neighbours({ stepId: step.id, sources: ["synthetic"] });
    expect(synthetic.neighbours.map((n) => n.source)).toEqual(["synthetic", "synthetic"]);

    await expect(caller.neighbours({ stepId: "nope" })).rejects.toThrow("No step with id nope");
    await expect(caller.neighbours({ stepId: step.id, k: 51 })).rejects.toThrow();
  });

  it("searches free text in one domain or all", async () => {
    const caller = createCaller(signedIn(t.db));
    const { results } = await caller.search({ text: "rosewood lipstick buy now", k: 2 });
    expect(results).toHaveLength(2);
    expect(results[0]?.domain).toBe("shop");
    const household = await caller.search({ text: "rosewood lipstick buy now", domain: "household", k: 5 });
    expect(household.results.every((r) => r.domain === "household")).toBe(true);
    await expect(caller.search({ text: "   " })).rejects.toThrow(/type something/);
  });

  it("answers again after the buffer is rebuilt under the cached store", async () => {
    const caller = createCaller(signedIn(t.db));
    expect(await rebuildIndex(t.db)).toMatchObject({ indexed: 16, total: 16 });
    expect(await caller.stats()).toMatchObject({ status: "ok", pendingSteps: 0, totalRows: 16 });
    const { results } = await caller.search({ text: "open fridge", domain: "household", k: 1 });
    expect(results[0]?.action).toBe("open fridge 1");
  });
});
