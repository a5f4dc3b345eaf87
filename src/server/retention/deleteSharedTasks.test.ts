import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { createHouseholdOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { auditStores } from "../audit/audit";
import { forgetReplayBuffer, withReplayBuffer } from "../replay/sharedReplayBuffer";
import { createRun } from "../train/runStore";

/*
 * Two runs of one config and seed write the same curriculum variations, under the same ids: the first run to
 * write one owns it, and the other trains on it. Deleting the owner must leave the other run whole (its own file:
 * the app's config, and so its LanceDB folder, is read once per process).
 */
let t: TestDb;
beforeEach(async () => {
  t = await createHouseholdOfflineDb(10);
});
afterEach(async () => {
  await forgetReplayBuffer();
  await t.cleanup();
});

const config = parseRunConfig({
  method: "dreamgym",
  domain: "household",
  seedTasks: 10,
  evaluation: { interval: 2, episodes: 2 },
  curriculum: { taskGeneration: true },
  // Long enough for the second run's curriculum to pick variations its first iterations wrote.
  iterations: 5,
  tasksPerBatch: 4,
  groupSize: 2,
});

describe("deleting one of two runs that share generated tasks", () => {
  it("of two runs of one config and seed, deleting one leaves the other whole: its rollouts, statistics and variations", async () => {
    const a = await createRun(t.db, config);
    const b = await createRun(t.db, config);
    expect(await workOnce(t.db)).toBe(true);
    expect(await workOnce(t.db)).toBe(true);
    const ofB = async () => ({
      trajectories: await t.db.trajectory.count({ where: { runId: b.runId } }),
      steps: await t.db.step.count({ where: { trajectory: { runId: b.runId } } }),
      taskStats: await t.db.taskStat.count({ where: { runId: b.runId } }),
      tasksUsed: (
        await t.db.trajectory.findMany({
          where: { runId: b.runId },
          distinct: ["taskId"],
          select: { taskId: true },
        })
      ).length,
    });
    const before = await ofB();
    // The same variations, written once by the first run: B trains on tasks A owns.
    const onTasksOfA = await t.db.trajectory.count({ where: { runId: b.runId, task: { runId: a.runId } } });
    expect(onTasksOfA).toBeGreaterThan(0);

    await withReplayBuffer(t.db, async (store) => {
      expect((await auditStores(t.db, store)).problems).toEqual([]);
    });
    const preview = await createCaller(signedIn(t.db)).runs.deletePreview({ id: a.runId });
    expect(preview.sharedTasks).toBeGreaterThan(0);
    await createCaller(signedIn(t.db)).runs.delete({ id: a.runId });

    expect(await ofB()).toEqual(before);
    expect(await t.db.task.count({ where: { runId: a.runId } })).toBe(0);
    await withReplayBuffer(t.db, async (store) => {
      expect((await auditStores(t.db, store)).problems).toEqual([]);
    });
  }, 60_000);
});
