import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { getRealDomain } from "@/core/envs/registry";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { collectOffline } from "./collectOffline";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

describe("offline collection", () => {
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
});
