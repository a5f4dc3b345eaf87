import { TRPCError } from "@trpc/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { createHouseholdOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { reconcile } from "../replay/reconcile";
import { forgetReplayBuffer, withReplayBuffer } from "../replay/sharedReplayBuffer";
import { lanceIds, stepIds } from "../replay/testing";
import { createRun } from "../train/runStore";

/*
 * The whole path, as an operator meets it: a run trained by the worker (rollouts, metrics, checkpoint, generated
 * tasks, its steps indexed into the app's own LanceDB folder), deleted through the runs router.
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
  iterations: 2,
  // Enough tasks and rollouts that some task's rewards vary in its group, so that the curriculum writes variations.
  tasksPerBatch: 4,
  groupSize: 4,
  seedTasks: 10,
  evaluation: { interval: 2, episodes: 2 },
  curriculum: { taskGeneration: true },
});

describe("deleting a run the worker trained", () => {
  it("removes it from the database and the replay buffer through the router; reconcile then finds nothing", async () => {
    const caller = createCaller(signedIn(t.db));
    const { runId } = await createRun(t.db, config);
    const work = () => workOnce(t.db);
    expect(await work()).toBe(true);
    const steps = await t.db.step.count({ where: { trajectory: { runId } } });
    expect(steps).toBeGreaterThan(0);
    expect(await t.db.step.count({ where: { indexedAt: null } })).toBe(0);
    const offline = await t.db.step.count({ where: { trajectory: { runId: null } } });

    // A run still waiting for the worker is refused, as CONFLICT.
    const { runId: waiting } = await createRun(t.db, config);
    const refused = await caller.runs.delete({ id: waiting }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/is queued: cancel it first/),
    });

    const preview = await caller.runs.deletePreview({ id: runId });
    expect(preview).toMatchObject({ steps, metrics: 2, checkpoints: 1, jobs: 1, refusal: null });
    const deleted = await caller.runs.delete({ id: runId });
    expect(preview.generatedTasks).toBeGreaterThan(0);
    const { refusal: _none, ...contents } = preview;
    expect(deleted).toEqual({ ...contents, lanceRowsRemoved: steps, lanceError: null });
    expect(await t.db.task.count({ where: { runId } })).toBe(0);

    expect(await t.db.run.findUnique({ where: { id: runId } })).toBeNull();
    expect(await t.db.step.count({ where: { trajectory: { runId: null } } })).toBe(offline);
    expect(await t.db.step.count()).toBe(offline);
    await withReplayBuffer(t.db, async (store) => {
      expect(await reconcile(t.db, store)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
      expect(await lanceIds(store)).toEqual(await stepIds(t.db));
    });
    await expect(caller.runs.delete({ id: runId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  }, 60_000);
});
