import { describe, expect, it } from "vitest";
import { embeddedTaskGenerator } from "../curriculum/embedded";
import { household } from "../envs/household";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import type { ExperienceModel } from "../experience/types";
import { parseRunConfig } from "./config";
import { type IterationReport, runTraining } from "./run";
import { offlineMemoryBuffer } from "./testing";

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
  const config = parseRunConfig({
    method: "dreamgym",
    domain: "household",
    iterations: 2,
    tasksPerBatch: 3,
    groupSize: 4,
    seedTasks: 10,
    evaluation: { interval: 2, episodes: 4 },
    rollouts: { concurrency },
  });
  const { model, stats } = slowModel();
  const reports: IterationReport[] = [];
  const result = await runTraining(config, {
    domain: household,
    buffer: await offlineMemoryBuffer(household, 10),
    model,
    generator: embeddedTaskGenerator("household"),
    onIteration: (r) => void reports.push(r),
  });
  const { seconds: _seconds, ...rest } = result;
  return { result: rest, reports, stats };
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
    const strip = (reports: IterationReport[]) =>
      JSON.parse(JSON.stringify(reports, (key, value) => (key === "latencyMs" ? undefined : value)));
    expect(strip(many.reports)).toEqual(strip(one.reports));
  }, 120_000);
});
