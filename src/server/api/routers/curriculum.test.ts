import { afterEach, beforeEach, expect, it } from "vitest";
import { decodeCells } from "@/shared/cellCodec";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { createCaller } from "../root";
import { signedIn } from "../testing";

/** The current test's database (set per database by the suite below; helpers above it use it). */
let t: TestDb;

async function seedRun() {
  const caller = createCaller(signedIn(t.db));
  const { runId } = await caller.runs.create({ method: "dreamgym", domain: "shop", iterations: 3 } as never);
  await t.db.task.createMany({
    data: [
      { id: "seed-a", domain: "shop", instruction: "Buy a red mug under $20" },
      { id: "seed-b", domain: "shop", instruction: "Buy blue socks" },
      { id: "seed-c", domain: "shop", instruction: "Buy a lamp" },
    ],
  });
  await t.db.task.create({
    data: {
      id: "gen-a1",
      domain: "shop",
      instruction: "Buy a red mug under $15",
      origin: "generated",
      parentId: "seed-a",
      generation: 1,
      runId,
    },
  });
  await t.db.task.create({
    data: {
      id: "gen-a1x",
      domain: "shop",
      instruction: "Buy a large red mug under $15",
      origin: "generated",
      parentId: "gen-a1",
      generation: 2,
      runId,
    },
  });
  const stat = (iteration: number, taskId: string, variance: number, meanReward: number) => ({
    runId,
    iteration,
    taskId,
    count: 4,
    variance,
    meanReward,
    successRate: meanReward,
  });
  await t.db.taskStat.createMany({
    data: [
      stat(1, "seed-a", 0.25, 0.5),
      stat(1, "seed-b", 0, 0),
      stat(2, "seed-a", 0.1875, 0.75),
      stat(2, "gen-a1", 0.25, 0.5),
      stat(3, "seed-b", 0.1875, 0.25),
    ],
  });
  return { caller, runId };
}

describeEachDatabase("curriculum router", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("returns the heatmap as flat row-major arrays, tasks sorted by mean variance", async () => {
    const { caller, runId } = await seedRun();
    const map = await caller.curriculum.heatmap({ runId });
    expect(map.iterations).toEqual([1, 2, 3]);
    // gen-a1 0.25 > seed-a 0.21875 > seed-b 0.09375
    expect(map.tasks.map((x) => x.id)).toEqual(["gen-a1", "seed-a", "seed-b"]);
    expect(map.tasks[1]).toMatchObject({ instruction: "Buy a red mug under $20", meanVariance: 0.2188 });
    expect(map.tasks[0]).toMatchObject({ origin: "generated", generation: 1, parentId: "seed-a" });
    const cells = Array.from(decodeCells(map.variance), (v) => Math.round(v * 1e4) / 1e4);
    expect(cells).toEqual([-1, 0.25, -1, 0.25, 0.1875, -1, 0, -1, 0.1875]);
    expect(map.maxVariance).toBe(0.25);
  });

  it("gives one task's statistics per iteration for the tooltip", async () => {
    const { caller, runId } = await seedRun();
    expect(await caller.curriculum.taskStats({ runId, taskId: "seed-a" })).toEqual([
      { iteration: 1, count: 4, meanReward: 0.5, variance: 0.25, successRate: 0.5 },
      { iteration: 2, count: 4, meanReward: 0.75, variance: 0.1875, successRate: 0.75 },
    ]);
    expect(await caller.curriculum.taskStats({ runId, taskId: "seed-c" })).toEqual([]);
  });

  it("gives an empty heatmap for a run with no statistics yet, and NOT_FOUND for an unknown run", async () => {
    const caller = createCaller(signedIn(t.db));
    const { runId } = await caller.runs.create({ method: "dreamgym", domain: "shop" } as never);
    const map = await caller.curriculum.heatmap({ runId });
    expect(map).toMatchObject({ iterations: [], tasks: [], maxVariance: 0 });
    expect(decodeCells(map.variance)).toHaveLength(0);
    await expect(caller.curriculum.heatmap({ runId: "nope" })).rejects.toThrow("No run with id nope");
    await expect(caller.curriculum.heatmap({ runId: "" })).rejects.toThrow(/runId is required/);
  });

  it("lists the lineage from each seed task down to the run's variations, unvaried seeds left out", async () => {
    const { caller, runId } = await seedRun();
    const { nodes, generated, truncated } = await caller.curriculum.lineage({ runId });
    expect(generated).toBe(2);
    expect(truncated).toBe(false);
    expect(nodes.map((n) => [n.id, n.depth, n.generatedHere])).toEqual([
      ["seed-a", 0, false],
      ["gen-a1", 1, true],
      ["gen-a1x", 2, true],
    ]);
    expect(nodes[0]).toMatchObject({ meanVariance: 0.21875, iterations: 2 });
    expect(nodes[2]).toMatchObject({ meanVariance: null, iterations: 0 });
  });

  it("lists runs to pick with their statistics counts", async () => {
    const { caller, runId } = await seedRun();
    const [run] = await caller.curriculum.runs({});
    expect(run).toMatchObject({ id: runId, taskStats: 5, generatedTasks: 2 });
  });
});
