import { afterEach, beforeEach, expect, it } from "vitest";
import { household } from "@/core/envs/household";
import { realAnswers } from "@/core/experience/realCheck";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { SyntheticEnvironment } from "@/core/experience/synthetic";
import type { ExperienceModel } from "@/core/experience/types";
import { rollout } from "@/core/rollout";
import { offlineMemoryBuffer } from "@/core/train/testing";
import type { Task } from "@/core/types";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { saveEpisodes } from "./saveEpisodes";

const reset = (task: Task) => household.createEnvironment().reset(task);

describeEachDatabase("saving synthetic episodes", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("stores each prediction beside the real environment's answer, with the model, latency and neighbours", async () => {
    const buffer = await offlineMemoryBuffer(household, 10, (i) => household.noisy(i, 0.2));
    const settings = { k: 4, historyWindow: 4, reasoning: true };
    const env = new SyntheticEnvironment(
      "household",
      new RetrievalExperienceModel(settings),
      buffer,
      settings,
      reset,
      20,
    );
    const task = household.task("test", 2); // a room the buffer has never seen: predictions will go wrong somewhere
    const episode = await rollout(env, household.random(3), task, 20);
    const real = await realAnswers(
      household,
      task,
      episode.steps.map((s) => s.action),
    );
    await saveEpisodes(t.db, [episode], { source: "synthetic", policy: "random" }, [real]);

    const steps = await t.db.step.findMany({ orderBy: { index: "asc" } });
    expect(steps).toHaveLength(episode.steps.length);
    for (const [i, step] of steps.entries()) {
      expect(step.model).toBe("retrieval-exp-v1");
      expect(step.latencyMs).toBeGreaterThanOrEqual(0);
      expect(step.neighbourIds).toHaveLength(4);
      expect(step.reasoning).toMatch(/\S/);
      expect(step.realNextState).toBe(real[i]?.observation.text ?? null);
    }
    // The synthetic and the real episode start together; by now some prediction disagrees with reality.
    expect(steps.some((s) => s.realNextState !== null && s.realNextState !== s.nextState)).toBe(true);
  });

  it("keeps an unusable reply's raw text and error, and never marks it valid", async () => {
    const broken: ExperienceModel = {
      name: "broken",
      predict: async (input) => ({
        reasoning: "",
        next: input.state,
        reward: 0,
        done: false,
        success: false,
        valid: false,
        model: "openai:x",
        latencyMs: 5,
        raw: '{"reasoning": "trunc',
        error: "the JSON is truncated",
      }),
    };
    const env = new SyntheticEnvironment(
      "household",
      broken,
      undefined,
      { k: 0, historyWindow: 0, reasoning: true },
      reset,
      2,
    );
    const episode = await rollout(env, household.random(1), household.task("train", 1), 2);
    await saveEpisodes(t.db, [episode], { source: "synthetic", policy: "random" });
    const steps = await t.db.step.findMany();
    expect(
      steps.every(
        (s) => !s.valid && s.parseError === "the JSON is truncated" && s.raw === '{"reasoning": "trunc',
      ),
    ).toBe(true);
  });
});
