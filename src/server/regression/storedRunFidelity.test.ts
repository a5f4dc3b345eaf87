import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { createRunRow } from "../../../tests/helpers/runRow";
import { createHouseholdOfflineDb, createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { addSyntheticEpisode } from "../gamed/testFixtures";
import { runFidelity } from "../steps/runFidelity";
import { createRun } from "../train/runStore";
import { storedRunFidelity } from "./storedRunFidelity";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
  await t.db.task.create({ data: { id: "shop:1", domain: "shop", instruction: "buy a red mug" } });
});
afterEach(async () => {
  await t.cleanup();
});

async function runWithEpisode(status: string) {
  const run = await createRunRow(t.db, { status });
  await addSyntheticEpisode(t.db, {
    runId: run.id,
    taskId: "shop:1",
    iteration: 0,
    success: false,
    steps: [
      { next: "Results [SEP] Red Mug", reward: 0, real: { next: "Results [SEP] Red Mug", reward: 0 } },
      {
        next: "Red Mug [SEP] $9.00",
        reward: 1,
        done: true,
        real: { next: "Red Mug [SEP] $12.00", reward: 0 },
      },
    ],
  });
  return run.id;
}

describe("a run's fidelity, stored once it has finished", () => {
  it("is measured on the first read of a finished run, stored, and read from then on; flags are counted live", async () => {
    const runId = await runWithEpisode("succeeded");
    const measured = await runFidelity(t.db, runId);
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).fidelity).toBeNull();

    const first = await storedRunFidelity(t.db, runId);
    expect(first).toEqual(measured);
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).fidelity).toMatchObject({
      version: 1,
      withRealAnswer: 2,
      differs: 0.5,
    });

    // Later reads come from the column: a step changed behind its back does not move the figures…
    await t.db.step.updateMany({ where: { index: 1 }, data: { nextState: "Red Mug [SEP] $12.00" } });
    await t.db.step.updateMany({ where: { index: 0 }, data: { flagged: true } });
    const second = await storedRunFidelity(t.db, runId);
    expect(second?.differs).toBe(0.5);
    expect(second?.report).toEqual(measured?.report);
    // …but a flag does: flags come and go after the run.
    expect(second?.flagged).toBe(1);
  });

  it("measures a running run every time and stores nothing", async () => {
    const runId = await runWithEpisode("running");
    expect((await storedRunFidelity(t.db, runId))?.differs).toBe(0.5);
    await t.db.step.updateMany({ where: { index: 1 }, data: { nextState: "Red Mug [SEP] $12.00" } });
    expect((await storedRunFidelity(t.db, runId))?.differs).toBe(0);
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).fidelity).toBeNull();
    expect(await storedRunFidelity(t.db, "no-such-run")).toBeNull();
  });
});

describe("a run that ends in the worker", () => {
  it("stores its fidelity as it finishes, the figures the flagged list would measure", async () => {
    const household = await createHouseholdOfflineDb(6);
    try {
      const { runId } = await createRun(
        household.db,
        parseRunConfig({
          method: "dreamgym",
          domain: "household",
          iterations: 2,
          tasksPerBatch: 2,
          groupSize: 2,
          seedTasks: 6,
          evaluation: { interval: 2, episodes: 2 },
        }),
      );
      await workOnce(household.db);
      const run = await household.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(run.status).toBe("succeeded");
      const measured = await runFidelity(household.db, runId);
      expect(measured?.withRealAnswer).toBeGreaterThan(0);
      expect(run.fidelity).toMatchObject({
        version: 1,
        syntheticSteps: measured?.syntheticSteps,
        withRealAnswer: measured?.withRealAnswer,
        differs: measured?.differs,
        report: { ...measured?.report },
      });
      expect(await storedRunFidelity(household.db, runId)).toEqual(measured);
    } finally {
      await household.cleanup();
    }
  });
});
