/**
 * Rollout threads play a run's synthetic episodes on the other cores: the same episodes, updates and weights as
 * when the main thread plays them all, for GRPO and PPO (whose critic's weights travel too).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { type IterationReport, runTraining } from "@/core/train/run";
import { config as appConfig } from "@/env";
import { createOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { ThreadRolloutPool } from "./rolloutThreads";
import { runDeps } from "./runDeps";

let t: TestDb;
beforeAll(async () => {
  t = await createOfflineDb("shop", 40);
}, 120_000);
afterAll(async () => {
  await t?.cleanup();
});

/** What a run did, without timings (each step reports how long its prediction took). */
function outcome(reports: IterationReport[]) {
  return reports.map((r) => ({
    meanReward: r.meanReward,
    update: r.update,
    episodes: r.episodes.map((e) => ({
      task: e.task.id,
      actions: e.steps.map((s) => s.action),
      states: e.steps.map((s) => s.next.text),
      rewards: e.steps.map((s) => s.reward),
    })),
  }));
}

async function train(algorithm: "grpo" | "ppo", threads: number) {
  appConfig().worker.threads = 0;
  appConfig().worker.rolloutThreads = threads;
  const config = parseRunConfig({
    method: "dreamgym",
    domain: "shop",
    algorithm,
    iterations: 3,
    tasksPerBatch: 4,
    groupSize: 4,
    seedTasks: 40,
    rollouts: { concurrency: 4 },
    evaluation: { interval: 100, episodes: 4, simulated: 0 },
  });
  const deps = await runDeps(t.db, config);
  const reports: IterationReport[] = [];
  try {
    const result = await runTraining(config, { ...deps, onIteration: (r) => void reports.push(r) });
    const pool = deps.rollouts instanceof ThreadRolloutPool ? deps.rollouts : undefined;
    return {
      checkpoint: result.checkpoint,
      reports: outcome(reports),
      played: pool?.played ?? 0,
      pooled: pool !== undefined,
    };
  } finally {
    await deps.close();
  }
}

describe("rollout threads", () => {
  it.each(["grpo", "ppo"] as const)(
    "%s: play a share of every iteration's episodes, and the run ends with the same episodes and weights",
    async (algorithm) => {
      const inline = await train(algorithm, 0);
      const threaded = await train(algorithm, 1);
      expect(inline.pooled).toBe(false);
      expect(threaded.pooled).toBe(true);
      // 3 iterations of 4 tasks x 4: the thread took part in each.
      expect(threaded.played).toBeGreaterThan(0);
      expect(threaded.played).toBeLessThanOrEqual(48);
      expect(threaded.reports).toEqual(inline.reports);
      expect(threaded.checkpoint).toEqual(inline.checkpoint);
    },
    180_000,
  );

  it("stay out of runs whose synthetic environment they could not rebuild exactly", async () => {
    appConfig().worker.rolloutThreads = 1;
    const config = parseRunConfig({
      method: "dreamgym",
      domain: "shop",
      iterations: 1,
      experience: { offlineOnly: false },
    });
    const deps = await runDeps(t.db, config);
    try {
      // Retrieval from the run's own synthetic rollouts: the buffer grows, so the main thread plays everything.
      expect(deps.rollouts).toBeUndefined();
    } finally {
      await deps.close();
    }
  });
});
