import { afterEach, beforeEach, expect, it } from "vitest";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { getRealDomain } from "@/core/envs/registry";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { collectOffline } from "./collectOffline";

describeEachDatabase("offline collection", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  for (const domain of REAL_DOMAIN_NAMES) {
    it(`stores ${domain} episodes that replay exactly in the real environment`, async () => {
      const summary = await collectOffline(
        t.db,
        { domain, policy: "noisy", episodes: 12, split: "train", epsilon: 0.4, seed: 5, offset: 40 },
        { batchSize: 5 },
      );
      expect(summary.episodes).toBe(12);
      const trajectories = await t.db.trajectory.findMany({
        include: { steps: { orderBy: { index: "asc" } }, task: true },
      });
      expect(trajectories).toHaveLength(12);
      expect(await t.db.step.count()).toBe(summary.transitions);
      expect(trajectories.filter((x) => x.success).length / 12).toBeCloseTo(summary.successRate);

      const real = getRealDomain(domain);
      for (const trajectory of trajectories) {
        expect(trajectory.source).toBe("offline");
        expect(trajectory.policy).toBe("noisy(eps=0.4)");
        const task = real.task("train", Number(trajectory.taskId.split(":")[2]));
        expect(trajectory.task.instruction).toBe(task.instruction);
        expect(trajectory.task.goal).toEqual(JSON.parse(JSON.stringify(task.goal)));
        const env = real.createEnvironment();
        let observation = await env.reset(task);
        for (const step of trajectory.steps) {
          expect(step.state).toBe(observation.text);
          expect(step.stateActions).toEqual(observation.actions ?? null);
          const result = await env.step(step.action);
          expect(step.nextState).toBe(result.observation.text);
          expect([step.reward, step.done, step.valid, step.success]).toEqual([
            result.reward,
            result.done,
            result.valid,
            result.success,
          ]);
          observation = result.observation;
        }
        expect(trajectory.steps.at(-1)?.done || trajectory.steps.length === real.maxSteps).toBe(true);
      }
    });
  }

  it("stops between batches when cancelled, keeping only whole batches", async () => {
    const abort = new AbortController();
    const run = collectOffline(
      t.db,
      { domain: "household", policy: "expert", episodes: 50, split: "train", epsilon: 0, seed: 0, offset: 0 },
      {
        batchSize: 10,
        signal: abort.signal,
        onProgress: (done) => done === 25 && abort.abort(new Error("cancelled")),
      },
    );
    await expect(run).rejects.toThrow("cancelled");
    expect(await t.db.trajectory.count()).toBe(20);
  });

  it("collects the same thing once: a rerun of a cancelled collection writes only what is missing", async () => {
    const options = {
      domain: "household",
      policy: "noisy",
      episodes: 12,
      split: "train",
      epsilon: 0.3,
      seed: 4,
      offset: 0,
    } as const;
    const abort = new AbortController();
    const cancelled = collectOffline(t.db, options, {
      batchSize: 4,
      signal: abort.signal,
      onProgress: (done) => done === 6 && abort.abort(new Error("cancelled")),
    });
    await expect(cancelled).rejects.toThrow("cancelled");
    const first = await t.db.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    expect(first).toHaveLength(4);

    const rerun = await collectOffline(t.db, options, { batchSize: 4 });
    expect(rerun).toMatchObject({ episodes: 12, alreadyStored: 4 });
    const all = await t.db.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    expect(all).toHaveLength(12);
    expect(all).toEqual(expect.arrayContaining(first));

    const again = await collectOffline(t.db, options);
    expect(again.alreadyStored).toBe(12);
    expect(await t.db.trajectory.count()).toBe(12);
    expect(await t.db.step.count()).toBe(rerun.transitions);
    const step = await t.db.step.findFirstOrThrow({ where: { index: 2 } });
    expect(step.id).toBe(`${step.trajectoryId}-2`);
  });

  it("keeps collections under different options apart, even when their episodes are the same", async () => {
    // The expert ignores its seed: both collections play the same episodes.
    const expert = {
      domain: "shop",
      policy: "expert",
      episodes: 5,
      split: "train",
      epsilon: 0,
      seed: 1,
      offset: 0,
    } as const;
    await collectOffline(t.db, expert);
    const second = await collectOffline(t.db, { ...expert, seed: 2 });
    expect(second.alreadyStored).toBe(0);
    const trajectories = await t.db.trajectory.findMany({
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(trajectories).toHaveLength(10);
    const plays = trajectories.map((x) => JSON.stringify([x.taskId, x.steps.map((s) => s.action)]));
    expect(new Set(plays).size).toBe(5);
  });
});
