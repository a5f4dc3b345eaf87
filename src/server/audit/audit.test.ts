import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { createHouseholdOfflineDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import type { LanceReplayBuffer } from "../replay/lanceReplayBuffer";
import { getReplayBuffer } from "../replay/sharedReplayBuffer";
import { createRun } from "../train/runStore";
import { auditStores } from "./audit";

let t: TestDb;
let store: LanceReplayBuffer;
let runId: string;

/** One finished run and offline data, indexed: whole stores. Each test breaks them one way and puts them back. */
describeEachDatabase("audit", (dialect) => {
  beforeAll(async () => {
    t = await createHouseholdOfflineDb(6, dialect);
    ({ runId } = await createRun(
      t.db,
      parseRunConfig({
        method: "dreamgym",
        domain: "household",
        iterations: 2,
        tasksPerBatch: 2,
        groupSize: 3,
      }),
    ));
    await workOnce(t.db);
    store = await getReplayBuffer(t.db);
  }, 120_000);
  afterAll(async () => {
    await t.cleanup();
  });

  describe("audit of the two stores", () => {
    it("finds nothing wrong with stores that jobs wrote, and counts them", async () => {
      const { counts, problems } = await auditStores(t.db, store);
      expect(problems).toEqual([]);
      expect(counts.steps).toBe(await t.db.step.count());
      expect(counts.lanceRows).toBe(counts.steps);
      expect(counts).toMatchObject({
        lanceIds: counts.steps,
        pendingSteps: 0,
        metrics: 2,
        runs: 1,
        checkpoints: 1,
      });
      expect(counts.jobs).toEqual({ succeeded: 1 });
    });

    it("names a rollout stored twice, and the task statistics that no longer match", async () => {
      const rollout = await t.db.trajectory.findFirstOrThrow({ where: { runId }, include: { steps: true } });
      const { id: _id, steps, createdAt: _c, ...copy } = rollout;
      const twin = await t.db.trajectory.create({
        // Json columns read back as JsonValue but are written as InputJsonValue; the rows are the ones just read.
        data: { ...copy, steps: { create: steps.map(({ id: _s, trajectoryId: _t, ...s }) => s) } as never },
      });
      const { problems } = await auditStores(t.db, store);
      expect(problems.join("\n")).toMatch(
        /1 rollouts stored more than once: run .* iteration \d+ task .* \(2×\)/,
      );
      expect(problems.join("\n")).toMatch(/1 task statistics disagree with the stored rollouts/);
      expect(problems.join("\n")).toMatch(/runs count other transitions than they store/);
      await t.db.trajectory.delete({ where: { id: twin.id } });
      expect((await auditStores(t.db, store)).problems.filter((p) => !p.includes("LanceDB"))).toEqual([]);
    });

    it("names a trajectory that lost a step, a run that lost a metric, and LanceDB rows without a step", async () => {
      const step = await t.db.step.findFirstOrThrow({ where: { trajectory: { runId }, index: 1 } });
      await t.db.step.delete({ where: { id: step.id } });
      const metric = await t.db.runMetric.findFirstOrThrow({ where: { runId, iteration: 1 } });
      await t.db.runMetric.delete({ where: { id: metric.id } });
      const { problems } = await auditStores(t.db, store);
      expect(problems).toEqual([
        expect.stringMatching(/^1 trajectories do not hold as many steps as their length: .* \(\d+\/\d+\)/),
        expect.stringMatching(/^1 runs miss metrics of finished iterations: .* \(1\/2\)/),
        `1 LanceDB rows belong to no step in the database: ${step.id}`,
      ]);
    });

    it("names steps marked as indexed whose LanceDB row is gone", async () => {
      const step = await t.db.step.findFirstOrThrow({ where: { indexedAt: { not: null } } });
      await store.deleteIds([step.id]);
      const reopened = await getReplayBuffer(t.db);
      const { problems } = await auditStores(t.db, reopened);
      expect(problems).toContain(`1 steps marked as indexed are missing from LanceDB: ${step.id}`);
    });

    it("names an iteration whose rollouts were taken, a failed job, and a run that waits for no job", async () => {
      // What a deletion that reached into another run left: an early iteration short of rollouts, its metrics and
      // statistics as they were.
      const taken = await t.db.trajectory.findFirstOrThrow({
        where: { runId, iteration: 1, purpose: "train" },
        include: { steps: true },
      });
      const { id: _id, steps, createdAt: _c, ...copy } = taken;
      await t.db.trajectory.delete({ where: { id: taken.id } });
      const job = await t.db.job.create({
        data: { type: "index", payload: {}, status: "failed", error: "database or disk is full" },
      });
      const stuck = await t.db.run.create({
        data: {
          name: "stuck",
          method: "dreamgym",
          domain: "household",
          algorithm: "grpo",
          config: {},
          status: "queued",
        },
      });
      const { problems } = await auditStores(t.db, store);
      const text = problems.join("\n");
      expect(text).toMatch(
        new RegExp(
          `1 iterations' metrics count other transitions than their run stores up to them: run ${runId} iteration \\d+ \\(real 0 counted, 0 stored; synthetic \\d+ counted, \\d+ stored\\)`,
        ),
      );
      expect(text).toContain(`1 jobs failed: ${job.id} (index: database or disk is full)`);
      expect(text).toContain(`1 runs wait for a job that will never run them: ${stuck.id} (queued)`);

      await t.db.trajectory.create({
        data: { ...copy, steps: { create: steps.map(({ id: _s, trajectoryId: _t, ...s }) => s) } as never },
      });
      await t.db.job.delete({ where: { id: job.id } });
      await t.db.run.delete({ where: { id: stuck.id } });
      const after = (await auditStores(t.db, store)).problems.join("\n");
      expect(after).not.toMatch(/iterations' metrics|jobs failed|wait for a job/);
    });
  });
});
