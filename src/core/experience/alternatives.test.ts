import { describe, expect, it } from "vitest";
import { office } from "../envs/office";
import { measureAlternatives } from "./alternatives";
import { OfflineMemory } from "./retrieval/offlineMemory";
import { RetrievalExperienceModel } from "./retrieval/retrievalModel";
import { fixedModel, offlineMemoryBuffer, realOracle } from "./testing";
import type { ExperienceSettings } from "./types";

/** Pays every action as a success that ends the episode: what a model that reads actions by their kind does. */
const paysAll = fixedModel("pays-all", { reward: 1, done: true, success: true });
const oracle = realOracle(office);

const settings: ExperienceSettings = { k: 8, historyWindow: 4, reasoning: true, sources: ["offline"] };
const options = {
  states: 12,
  perState: 6,
  task: (i: number) => office.task("test", i),
  epsilon: 0.3,
  seed: 0,
};

describe("alternatives at the same state", () => {
  it("scores a model that knows the environment as always picking a right action, and one that pays all as not", async () => {
    const right = await measureAlternatives(office, oracle, undefined, { ...settings, k: 0 }, options);
    expect(right.states).toBe(12);
    expect(right.contested).toBeGreaterThan(0);
    expect(right.pickAccuracy).toBe(1);
    expect(right.rightPaid).toBe(1);
    expect(right.wrongPaid).toBe(0);

    const all = await measureAlternatives(office, paysAll, undefined, { ...settings, k: 0 }, options);
    expect(all.wrongPaid).toBe(1);
    expect(all.wrongPredictedSuccess).toBe(1);
    expect(all.pickAccuracy!).toBeLessThan(0.6);
  });

  it("finds the embedded model telling the record a request names from the others on its list", async () => {
    const buffer = await offlineMemoryBuffer(office, 80);
    const model = new RetrievalExperienceModel(settings, OfflineMemory.fromTransitions(buffer.transitions()));
    const report = await measureAlternatives(office, model, buffer, settings, options);
    expect(report.contested).toBeGreaterThan(3);
    expect(report.pickAccuracy!).toBeGreaterThan(0.7);
    expect(report.wrongPaid!).toBeLessThan(report.rightPaid!);
  }, 60_000);
});
