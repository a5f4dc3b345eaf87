import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/helpers/testDb";
import { reconcile } from "../replay/reconcile";
import { dbAndLanceFixture } from "../replay/storeFixture";
import { indexPendingSteps } from "../replay/syncSteps";
import { lanceIds, stepIds } from "../replay/testing";
import { deleteRun, previewRunDeletion } from "./deleteRun";
import { RetentionError } from "./errors";
import { SEED_TASK, writeRun } from "./testing";
import { collectStepIds } from "./transaction";

describeEachDatabase("run deletion", (dialect) => {
  const f = dbAndLanceFixture(dialect);

  /** Row counts of every table a run reaches, for "the other run is untouched". */
  async function tables() {
    const db = f.db;
    return {
      runs: await db.run.count(),
      tasks: await db.task.count(),
      trajectories: await db.trajectory.count(),
      steps: await db.step.count(),
      annotations: await db.annotation.count(),
      events: await db.annotationEvent.count(),
      metrics: await db.runMetric.count(),
      taskStats: await db.taskStat.count(),
      checkpoints: await db.checkpoint.count(),
      jobs: await db.job.count(),
    };
  }

  describe("deleteRun", () => {
    it("removes the run and everything of it from both stores, leaves the other run alone, and leaves reconcile nothing to do", async () => {
      const gone = await writeRun(f.db, "gone", { episodes: 4, steps: 3 });
      const kept = await writeRun(f.db, "kept");
      const store = await f.store();
      await indexPendingSteps(f.db, store);
      const ofKept = await f.db.step.findMany({
        where: { trajectory: { runId: kept.runId } },
        select: { id: true },
        orderBy: { id: "asc" },
      });
      expect(await lanceIds(store)).toHaveLength(gone.expected.steps + kept.expected.steps);

      const preview = await previewRunDeletion(f.db, gone.runId);
      expect(preview).toMatchObject({ ...gone.expected, name: "gone", status: "succeeded", refusal: null });

      const result = await deleteRun(f.db, gone.runId, store);
      expect(result).toEqual({
        runId: gone.runId,
        name: "gone",
        status: "succeeded",
        ...gone.expected,
        lanceRowsRemoved: gone.expected.steps,
        lanceError: null,
      });

      // Nothing of it is left in Prisma: every table now holds exactly the kept run's rows.
      expect(await f.db.run.findUnique({ where: { id: gone.runId } })).toBeNull();
      expect(await f.db.task.count({ where: { runId: gone.runId } })).toBe(0);
      expect(await tables()).toEqual({
        runs: 1,
        tasks: 2, // the shared seed task and the kept run's generated one
        trajectories: kept.expected.trajectories,
        steps: kept.expected.steps,
        annotations: 1,
        events: 1,
        metrics: 2,
        taskStats: 2,
        checkpoints: 1,
        jobs: 1,
      });
      expect(await f.db.task.findUnique({ where: { id: SEED_TASK } })).not.toBeNull();
      // Nor in LanceDB: the table holds exactly the kept run's steps, and the two stores agree.
      expect(await lanceIds(store)).toEqual(ofKept.map((s) => s.id));
      expect(await reconcile(f.db, store)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    });

    it("refuses a queued or running run, or one whose job was resumed, and deletes nothing", async () => {
      const running = await writeRun(f.db, "busy", { status: "running" });
      const queued = await writeRun(f.db, "waiting", { status: "queued" });
      const resumed = await writeRun(f.db, "resumed", { status: "failed" });
      await f.db.job.create({ data: { type: "train", payload: { runId: resumed.runId } } });
      const store = await f.store();
      await indexPendingSteps(f.db, store);
      const before = await tables();
      const rows = await lanceIds(store);

      await expect(deleteRun(f.db, running.runId, store)).rejects.toThrow(
        `run "busy" (${running.runId}) is running: cancel it first`,
      );
      await expect(deleteRun(f.db, queued.runId, store)).rejects.toThrow(/is queued: cancel it first/);
      const refused = await deleteRun(f.db, resumed.runId, store).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RetentionError);
      expect(refused).toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/resumed.*is queued/),
      });
      expect((await previewRunDeletion(f.db, running.runId)).refusal).toMatch(/cancel it first/);

      expect(await tables()).toEqual(before);
      expect(await lanceIds(store)).toEqual(rows);
    });

    it("keeps the generated tasks another run also uses, with that run's rows on them, and hands them over", async () => {
      // Two runs of one config and seed write the same variations: B's rollouts, statistics and a variation of
      // its own sit on tasks A wrote first. Deleting A must take none of B's rows.
      const a = await writeRun(f.db, "a");
      const b = await writeRun(f.db, "b");
      const ofA = await f.db.task.findFirstOrThrow({ where: { runId: a.runId } });
      const grandchild = await f.db.task.create({
        data: {
          id: `${ofA.id}~2`,
          domain: "household",
          instruction: "a variation of A's variation",
          origin: "generated",
          parentId: ofA.id,
          generation: 2,
          runId: a.runId,
        },
      });
      await f.db.trajectory.create({
        data: {
          taskId: grandchild.id,
          domain: "household",
          source: "synthetic",
          purpose: "train",
          runId: b.runId,
          iteration: 2,
          group: 0,
        },
      });
      await f.db.taskStat.create({
        data: {
          runId: b.runId,
          iteration: 1,
          taskId: ofA.id,
          count: 1,
          meanReward: 1,
          variance: 0,
          successRate: 1,
        },
      });
      const unusedOfA = await f.db.task.create({
        data: {
          id: `${SEED_TASK}~only-a`,
          domain: "household",
          instruction: "only A's",
          origin: "generated",
          runId: a.runId,
        },
      });
      const ofB = async () => ({
        trajectories: await f.db.trajectory.count({ where: { runId: b.runId } }),
        steps: await f.db.step.count({ where: { trajectory: { runId: b.runId } } }),
        taskStats: await f.db.taskStat.count({ where: { runId: b.runId } }),
      });
      const before = await ofB();

      const preview = await previewRunDeletion(f.db, a.runId);
      expect(preview).toMatchObject({
        trajectories: a.expected.trajectories,
        generatedTasks: 1,
        sharedTasks: 2,
      });
      await deleteRun(f.db, a.runId, await f.store());

      expect(await ofB()).toEqual(before);
      // B inherits both, the lineage whole; A's unused variation is gone with A.
      expect(await f.db.task.findUnique({ where: { id: grandchild.id } })).toMatchObject({
        runId: b.runId,
        parentId: ofA.id,
      });
      expect(await f.db.task.findUnique({ where: { id: ofA.id } })).toMatchObject({ runId: b.runId });
      expect(await f.db.task.findUnique({ where: { id: unusedOfA.id } })).toBeNull();
      // And B's own deletion then takes them, as nothing else uses them.
      expect(await previewRunDeletion(f.db, b.runId)).toMatchObject({ generatedTasks: 3, sharedTasks: 0 });
    });

    it("says there is no such run", async () => {
      const store = await f.store();
      await expect(deleteRun(f.db, "nope", store)).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "No run with id nope",
      });
      await expect(previewRunDeletion(f.db, "nope")).rejects.toThrow("No run with id nope");
    });

    it("a crash between the database and LanceDB leaves only rows without a step, which reconcile removes", async () => {
      const gone = await writeRun(f.db, "gone");
      await writeRun(f.db, "kept");
      const store = await f.store();
      await indexPendingSteps(f.db, store);

      const crash = new Error("process died after the commit");
      await expect(
        deleteRun(f.db, gone.runId, store, {
          afterCommit: () => {
            throw crash;
          },
        }),
      ).rejects.toBe(crash);
      // The database part is whole; LanceDB still holds the run's rows.
      expect(await f.db.run.count({ where: { id: gone.runId } })).toBe(0);
      expect((await lanceIds(store)).length).toBe((await stepIds(f.db)).length + gone.expected.steps);

      // A fresh process (a new store handle) repairs it.
      f.close(store);
      const reopened = await f.store();
      expect(await reconcile(f.db, reopened)).toEqual({
        removed: gone.expected.steps,
        requeued: 0,
        duplicated: 0,
      });
      expect(await lanceIds(reopened)).toEqual(await stepIds(f.db));
      expect(await reconcile(f.db, reopened)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    });

    it("reports a LanceDB that fails instead of throwing: the run is gone, and reconcile removes its rows later", async () => {
      const gone = await writeRun(f.db, "gone");
      const store = await f.store();
      await indexPendingSteps(f.db, store);
      const broken = {
        existingIds: () => Promise.reject(new Error("lance is unavailable")),
        deleteIds: () => Promise.reject(new Error("lance is unavailable")),
      };
      const result = await deleteRun(f.db, gone.runId, broken);
      expect(result).toMatchObject({ steps: gone.expected.steps, lanceRowsRemoved: 0 });
      expect(result.lanceError).toMatch(/lance is unavailable.*npm run cli -- reconcile/);
      expect(await f.db.step.count()).toBe(0);
      expect(await reconcile(f.db, store)).toEqual({
        removed: gone.expected.steps,
        requeued: 0,
        duplicated: 0,
      });
    });

    it("counts steps never indexed but removes no row for them", async () => {
      const gone = await writeRun(f.db, "gone");
      const store = await f.store();
      const result = await deleteRun(f.db, gone.runId, store);
      expect(result).toMatchObject({ steps: gone.expected.steps, lanceRowsRemoved: 0, lanceError: null });
      expect(await reconcile(f.db, store)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    });

    it("collects step ids in pages, all of them, in id order", async () => {
      const run = await writeRun(f.db, "paged", { episodes: 3, steps: 3 });
      const all = (await f.db.step.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map(
        (s) => s.id,
      );
      const where = { trajectory: { runId: run.runId } };
      for (const page of [1, 2, 4, all.length, all.length + 1]) {
        expect(await f.db.$transaction((tx) => collectStepIds(tx, where, page))).toEqual(all);
      }
    });
  });
});
