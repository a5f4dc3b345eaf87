import { describe, expect, it } from "vitest";
import { embeddedTaskGenerator } from "../curriculum/embedded";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import type { ExperienceModel } from "../experience/types";
import { concurrencyRun, withoutLatency } from "./testing";

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
