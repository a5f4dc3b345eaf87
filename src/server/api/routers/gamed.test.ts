import { afterEach, beforeEach, expect, it } from "vitest";
import { verdictOf } from "@/shared/realAnswer";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { seedGamedWorld } from "../../gamed/testFixtures";
import { createCaller } from "../root";
import { signedIn } from "../testing";

describeEachDatabase("gamed router", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("parts at the step the step view marks first", async () => {
    const w = await seedGamedWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    const { items } = await caller.gamed.episodes({});
    expect(items).toHaveLength(5);
    for (const episode of items) {
      const { steps } = await caller.trajectories.get({ id: episode.id });
      const first = steps.findIndex((s) => verdictOf(s)?.any === true);
      expect(episode.parting?.index ?? -1, episode.id).toBe(first);
      expect(episode.rewardPartsAt ?? -1, episode.id).toBe(
        steps.findIndex((s) => verdictOf(s)?.reward === true),
      );
    }
    expect(items[0]?.id).toBe(w.household);
  });

  it("says why a real-env run has nothing to rank, and which run does not exist", async () => {
    const w = await seedGamedWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    const summary = await caller.gamed.summary({ runId: w.realRunId });
    expect(summary).toMatchObject({ run: { method: "real", synthetic: false }, episodes: 0, ranked: 0 });
    expect(await caller.gamed.episodes({ runId: w.realRunId })).toMatchObject({ items: [], total: 0 });
    await expect(caller.gamed.summary({ runId: "no-such-run" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No run with id no-such-run",
    });
    await expect(caller.gamed.episodes({ runId: "no-such-run" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("refuses an iteration range that starts after it ends, and bounds a page", async () => {
    const caller = createCaller(signedIn(t.db));
    await expect(caller.gamed.summary({ iterationFrom: 3, iterationTo: 1 })).rejects.toThrow(
      /starts after it ends \(3 > 1\)/,
    );
    await expect(caller.gamed.episodes({ iterationFrom: 3, iterationTo: 1 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.gamed.episodes({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.gamed.summary({})).toMatchObject({ run: null, episodes: 0, gamedShare: 0 });
  });
});
