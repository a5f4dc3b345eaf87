import { describe, expect, it } from "vitest";
import { blindTaskGenerator } from "../curriculum/blindVariations";
import { shop } from "../envs/shop";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import type { StoredEpisode } from "./bufferTransitions";
import { parseRunConfig } from "./config";
import { type IterationReport, runTraining } from "./run";
import { offlineMemoryBuffer } from "./testing";

/** What the store keeps of an iteration's rollouts: each numbered within its task's group (saveEpisodes.ts). */
function stored(report: IterationReport): StoredEpisode[] {
  const seen = new Map<string, number>();
  return report.episodes.map((e) => {
    const group = seen.get(e.task.id) ?? 0;
    seen.set(e.task.id, group + 1);
    return { iteration: report.iteration, source: report.phase, task: e.task, group, steps: e.steps };
  });
}

describe("buffer enrichment", () => {
  it("a resumed run rebuilds the enriched buffer from its stored episodes and ends where the uninterrupted run ends", async () => {
    const config = parseRunConfig({
      method: "dreamgym",
      domain: "shop",
      iterations: 3,
      tasksPerBatch: 2,
      groupSize: 2,
      seedTasks: 10,
      evaluation: { interval: 3, episodes: 4, simulated: 0 },
      experience: { enrichBuffer: true },
    });
    const seeds = shop.tasks("train", 10).map((t) => t.instruction);
    const deps = () => ({
      domain: shop,
      model: new RetrievalExperienceModel({ reasoning: true }),
      generator: blindTaskGenerator("shop", seeds),
    });
    const buffer = await offlineMemoryBuffer(shop, 10);
    const offline = [...buffer.transitions()].length;
    const uninterrupted = await runTraining(config, { ...deps(), buffer });
    // The run's synthetic transitions joined the buffer it retrieves from.
    expect([...buffer.transitions()].length).toBe(offline + uninterrupted.syntheticTransitions);

    const first: IterationReport[] = [];
    await expect(
      runTraining(config, {
        ...deps(),
        buffer: await offlineMemoryBuffer(shop, 10),
        onIteration: (r) => {
          first.push(r);
          if (r.iteration === 2) throw new Error("worker died");
        },
      }),
    ).rejects.toThrow("worker died");
    // A new worker: a fresh buffer of the offline data, the checkpoint of iteration 2 and the stored rollouts.
    const resume = JSON.parse(JSON.stringify(first[1]!.state));
    const episodes = first.flatMap(stored);
    const resumed = await runTraining(config, {
      ...deps(),
      buffer: await offlineMemoryBuffer(shop, 10),
      resume,
      storedEpisodes: async () => [...episodes].reverse(),
    });
    expect(resumed.checkpoint.weights).toBe(uninterrupted.checkpoint.weights);
    expect(resumed.final).toEqual(uninterrupted.final);
    // Without them the resumed run retrieves from less, and parts from the run that never stopped.
    const forgetful = await runTraining(config, {
      ...deps(),
      buffer: await offlineMemoryBuffer(shop, 10),
      resume,
    });
    expect(forgetful.checkpoint.weights).not.toBe(uninterrupted.checkpoint.weights);
  }, 300_000);
});
