import { describe, expect, it } from "vitest";
import { embeddedTaskGenerator } from "../curriculum/embedded";
import { TaskValueTable } from "../curriculum/valueTable";
import { household } from "../envs/household";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import { SyntheticEnvironment } from "../experience/synthetic";
import { LinearPolicy } from "../policy/linearPolicy";
import { trainingIteration } from "./iteration";
import { grpoLearner } from "./learner";
import { offlineMemoryBuffer } from "./testing";

describe("a DreamGym iteration", () => {
  it("rolls out groups in the synthetic environment, updates the policy, grows the buffer and the curriculum", async () => {
    const buffer = await offlineMemoryBuffer(household, 12);
    const offline = buffer.size;
    const policy = new LinearPolicy({ candidates: household.candidateActions, seed: 3 });
    const before = Float32Array.from(policy.weights);
    const settings = { k: 4, historyWindow: 4, reasoning: true, sources: ["offline" as const] };
    const values = new TaskValueTable();
    const deps = {
      domain: household,
      policy,
      learner: grpoLearner(policy),
      makeEnv: () =>
        new SyntheticEnvironment(
          "household",
          new RetrievalExperienceModel(settings),
          buffer,
          settings,
          (task) => household.createEnvironment().reset(task),
          50,
        ),
      source: "synthetic" as const,
      buffer,
      values,
      generator: embeddedTaskGenerator("household"),
    };
    const pool = Array.from({ length: 12 }, (_, i) => household.task("train", i));
    const iteration = {
      tasksPerBatch: 3,
      groupSize: 4,
      lambda: 0.34,
      parentsPerIteration: 2,
      variationsPerParent: 1,
      seed: 9,
      concurrency: 4,
    };
    const result = await trainingIteration(deps, iteration, 0, pool);

    expect(result.batch).toHaveLength(3);
    expect(result.episodes).toHaveLength(12);
    expect(result.taskStats.map((s) => s.taskId)).toEqual(result.batch.map((t) => t.id));
    expect(result.taskStats.every((s) => s.count === 4)).toBe(true);
    expect(buffer.size).toBe(offline + result.transitions);
    // Every synthetic step was written by the experience model, with a reasoning trace.
    expect(result.episodes.every((e) => e.episode.steps.every((s) => (s.reasoning ?? "").length > 0))).toBe(
      true,
    );
    for (const task of result.generated) {
      expect(task).toMatchObject({ origin: "generated", generation: 1, split: "train" });
      expect(pool.map((t) => t.id)).toContain(task.parentId);
    }
    // Groups with different rewards carry an advantage; the update then moves the weights.
    expect(result.update.informative).toBeGreaterThan(0);
    expect(Array.from(policy.weights)).not.toEqual(Array.from(before));
  });
});
