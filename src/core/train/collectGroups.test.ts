import { describe, expect, it } from "vitest";
import { embeddedTaskGenerator } from "../curriculum/embedded";
import { household } from "../envs/household";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import { SyntheticEnvironment } from "../experience/synthetic";
import type { ExperienceModel } from "../experience/types";
import { DEFAULT_EXPERIENCE_SETTINGS } from "../experience/types";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { LinearValue } from "../policy/value";
import { collectEpisode } from "../rl/collect";
import type { RolloutPool } from "./rolloutPool";
import { concurrencyRun, offlineMemoryBuffer, withoutLatency } from "./testing";

/** The retrieval model behind a random delay, as an endpoint answers: episodes finish in a scrambled order. */
function slowModel() {
  const inner = new RetrievalExperienceModel({ reasoning: true });
  const stats = { inFlight: 0, maxInFlight: 0 };
  const model: ExperienceModel = {
    ...inner,
    predict: async (input) => {
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      try {
        return await inner.predict(input);
      } finally {
        stats.inFlight--;
      }
    },
  };
  return { model, stats };
}

async function run(concurrency: number) {
  const { model, stats } = slowModel();
  const outcome = await concurrencyRun(concurrency, { model, generator: embeddedTaskGenerator("household") });
  return { ...outcome, stats };
}

describe("concurrent rollouts", () => {
  it("give the same episodes, updates and policy at 1 and 64 in flight, whatever order they finish in", async () => {
    const one = await run(1);
    const many = await run(64);
    expect(one.stats.maxInFlight).toBe(1);
    // Every episode of the batch (3 tasks x 4) overlaps when the limit allows it.
    expect(many.stats.maxInFlight).toBeGreaterThanOrEqual(12);
    expect(many.result.checkpoint.weights).toBe(one.result.checkpoint.weights);
    expect(many.result).toEqual(one.result);
    // Everything but wall-clock latency: each episode, step, update and stored row is the same.
    expect(withoutLatency(many.reports)).toEqual(withoutLatency(one.reports));
  }, 120_000);
});

/**
 * What a rollout thread does, in this process: its own copies of the policy and critic (synced before each
 * iteration), its own synthetic environment over the same model and offline buffer. Every `failEvery`-th episode
 * it is handed fails, as a dying thread's would.
 */
async function localPool(failEvery: number) {
  const model = new RetrievalExperienceModel({ reasoning: true });
  const buffer = await offlineMemoryBuffer(household, 10);
  let policy: LinearPolicy | undefined;
  let value: LinearValue | undefined;
  let handed = 0;
  const counts = { played: 0, failed: 0 };
  const pool: RolloutPool = {
    capacity: 4,
    hasRoom: () => true,
    sync(p, v) {
      policy = p.clone();
      value = v;
    },
    async run(task, maxSteps, key) {
      if (++handed % failEvery === 0) {
        counts.failed++;
        throw new Error("the thread died");
      }
      const env = new SyntheticEnvironment(
        household.name,
        model,
        buffer,
        { ...DEFAULT_EXPERIENCE_SETTINGS, sources: ["offline"] },
        (t) => household.createEnvironment().reset(t),
        household.maxSteps,
      );
      counts.played++;
      return collectEpisode(env, policy!, task, maxSteps, key, value);
    },
  };
  return { pool, counts };
}

describe("a rollout pool", () => {
  it("plays episodes that are the ones the run would have played, and a failed one is played by the run", async () => {
    const deps = () => ({
      model: new RetrievalExperienceModel({ reasoning: true }),
      generator: embeddedTaskGenerator("household"),
    });
    const alone = await concurrencyRun(4, deps());
    const { pool, counts } = await localPool(3);
    const pooled = await concurrencyRun(4, { ...deps(), rollouts: pool });
    expect(counts.played).toBeGreaterThan(0);
    expect(counts.failed).toBeGreaterThan(0);
    expect(pooled.result).toEqual(alone.result);
    expect(withoutLatency(pooled.reports)).toEqual(withoutLatency(alone.reports));
  }, 120_000);
});
