import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { seedResearcherWorld } from "../../steps/testFixtures";
import { createCaller } from "../root";
import { signedIn } from "../testing";

/** Who flags and why, where a test does not care. */
const BY = { category: "hallucinated-element", author: "Rae" } as const;
describeEachDatabase("trajectories router", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("filters the explorer by run, iteration, task, source, success and flagged", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    const ids = async (filter: Parameters<typeof caller.trajectories.list>[0]) =>
      (await caller.trajectories.list(filter)).items.map((i) => i.id);

    expect(await ids({})).toEqual([world.laterId, world.syntheticId, world.offlineId]);
    expect(await ids({ runId: world.runId })).toEqual([world.laterId, world.syntheticId]);
    expect(await ids({ runId: world.runId, iteration: 0 })).toEqual([world.syntheticId]);
    expect(await ids({ taskId: "shop:1" })).toEqual([world.syntheticId, world.offlineId]);
    expect(await ids({ source: "offline" })).toEqual([world.offlineId]);
    expect(await ids({ success: true })).toEqual([world.laterId]);
    expect(await ids({ flagged: true })).toEqual([]);
    // The search ignores case on either database.
    expect(await ids({ search: "RED Mug" })).toEqual([world.syntheticId, world.offlineId]);

    await caller.steps.flag({ ...BY, id: world.hallucinatedStepId, note: "teapot" });
    const flagged = await caller.trajectories.list({ flagged: true });
    expect(flagged.items.map((i) => [i.id, i.flaggedSteps])).toEqual([[world.syntheticId, 1]]);
    expect(await ids({ flagged: false })).toEqual([world.laterId, world.offlineId]);
    await expect(caller.trajectories.list({ iteration: -1 })).rejects.toThrow(/iteration/);
  });

  it("finds the previous and next episode within the filtered list", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    expect(await caller.trajectories.adjacent({ id: world.syntheticId })).toEqual({
      position: 2,
      total: 3,
      previousId: world.laterId,
      nextId: world.offlineId,
    });
    expect(
      await caller.trajectories.adjacent({ id: world.syntheticId, filter: { source: "synthetic" } }),
    ).toEqual({ position: 2, total: 2, previousId: world.laterId, nextId: null });
    // An episode outside the filter still has neighbours, but no position in the list.
    expect(
      await caller.trajectories.adjacent({ id: world.syntheticId, filter: { source: "offline" } }),
    ).toEqual({ position: null, total: 1, previousId: null, nextId: world.offlineId });
    await expect(caller.trajectories.adjacent({ id: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No trajectory with id nope",
    });
  });

  it("lists runs with the iterations they have episodes in, and gets an episode with its run", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    const [run] = await caller.trajectories.runOptions();
    expect(run).toMatchObject({
      id: world.runId,
      name: "fixture run",
      iterations: [
        { iteration: 0, episodes: 1 },
        { iteration: 1, episodes: 1 },
      ],
    });
    const episode = await caller.trajectories.get({ id: world.syntheticId });
    expect(episode.run).toEqual({ id: world.runId, name: "fixture run" });
    expect(episode.steps.map((s) => s.index)).toEqual([0, 1]);
    await expect(caller.trajectories.get({ id: "nope" })).rejects.toThrow(/No trajectory with id nope/);
  });
});
