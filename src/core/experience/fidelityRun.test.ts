import { describe, expect, it } from "vitest";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { measureFidelity } from "./fidelityRun";
import { RetrievalExperienceModel } from "./retrieval/retrievalModel";
import { fixedModel, offlineMemoryBuffer, realOracle } from "./testing";

/** Never changes anything: the floor. */
const frozen = fixedModel("frozen", { reward: 0, done: false, success: false });

describe("measureFidelity", () => {
  for (const domain of [household, shop]) {
    it(`scores a model that knows the real ${domain.name} environment as perfect, and a frozen one as poor`, async () => {
      const settings = { k: 0, historyWindow: 1000, reasoning: false };
      const options = { transitions: 60, task: (i: number) => domain.task("test", i), epsilon: 0.3, seed: 4 };
      const perfect = await measureFidelity(domain, realOracle(domain), undefined, settings, options);
      expect(perfect.report).toMatchObject({
        transitions: 60,
        exactMatch: 1,
        tokenF1: 1,
        rewardAccuracy: 1,
        doneAccuracy: 1,
        invalidActionAgreement: 1,
        hallucinationRate: 0,
      });
      const poor = await measureFidelity(domain, frozen, undefined, settings, options);
      expect(poor.report.exactMatch).toBeLessThan(0.5);
      expect(poor.report.tokenF1).toBeLessThan(0.9);
    });
  }

  it("gives the retrieval model's wrong predictions less confidence than its right ones, on held-out tasks", async () => {
    // Offline data as the paper's: a noisy expert's episodes on train tasks (the held-out tasks are test ones).
    const buffer = await offlineMemoryBuffer(household, 40);
    const { report } = await measureFidelity(
      household,
      new RetrievalExperienceModel({ reasoning: true }),
      buffer,
      { k: 8, historyWindow: 4, reasoning: true },
      { transitions: 300, task: (i) => household.task("test", i), epsilon: 0.3, seed: 2 },
    );
    expect(report.confidenceRight).toBeGreaterThan(report.confidenceWrong ?? 1);
    expect(report.confidenceAuroc).toBeGreaterThan(0.55);
  });
});
