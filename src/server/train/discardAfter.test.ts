import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { createHouseholdOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { auditStores } from "../audit/audit";
import { forgetReplayBuffer, withReplayBuffer } from "../replay/sharedReplayBuffer";
import { createRun, discardAfter } from "./runStore";

/*
 * A crashed attempt resumes from its checkpoint after discarding what it recorded past it. The run's counters go
 * back with the rows (issue: a chaos run that then failed for good kept 478 synthetic transitions counted against
 * 208 stored).
 */
let t: TestDb;
beforeEach(async () => {
  t = await createHouseholdOfflineDb(10);
});
afterEach(async () => {
  await forgetReplayBuffer();
  await t.cleanup();
});

describe("discardAfter", () => {
  it("sets the run's iteration and counters back to the checkpoint's, with the rows it removes", async () => {
    const config = parseRunConfig({
      method: "dreamgym",
      domain: "household",
      iterations: 4,
      tasksPerBatch: 2,
      groupSize: 2,
      seedTasks: 10,
      evaluation: { interval: 4, episodes: 2 },
    });
    const { runId } = await createRun(t.db, config);
    expect(await workOnce(t.db)).toBe(true);
    const stored = async (upTo: number) =>
      (
        await t.db.trajectory.aggregate({
          where: { runId, purpose: "train", source: "synthetic", iteration: { lte: upTo } },
          _sum: { length: true },
        })
      )._sum.length ?? 0;
    const atTwo = await stored(2);
    expect(atTwo).toBeLessThan(await stored(4));
    // As a resumed attempt does, from a checkpoint at iteration 2; then the job fails for good and stays so.
    const past = await t.db.step.count({ where: { trajectory: { runId, iteration: { gt: 2 } } } });
    // A worker killed between its LanceDB write and marking the steps indexed: their rows are in LanceDB all the
    // same, so every removed step is named for removal there, marked or not.
    await t.db.step.updateMany({ where: { trajectory: { runId } }, data: { indexedAt: null } });
    const removed = await discardAfter(t.db, runId, {
      iterations: 2,
      realTransitions: 0,
      syntheticTransitions: atTwo,
    });
    expect(removed).toHaveLength(past);
    expect(past).toBeGreaterThan(0);
    await t.db.run.update({ where: { id: runId }, data: { status: "failed" } });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      iteration: 2,
      syntheticTransitions: atTwo,
      realTransitions: 0,
    });
    expect(await stored(4)).toBe(atTwo);
    await withReplayBuffer(t.db, async (store) => {
      const { problems } = await auditStores(t.db, store);
      expect(problems.filter((p) => !p.includes("LanceDB") && !p.includes("indexed"))).toEqual([]);
    });
  }, 60_000);
});
