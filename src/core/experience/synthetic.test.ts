import { describe, expect, it } from "vitest";
import { household } from "../envs/household";
import { rollout } from "../rollout";
import type { Task } from "../types";
import { RetrievalExperienceModel } from "./retrieval/retrievalModel";
import { SyntheticEnvironment, type SyntheticStepInfo } from "./synthetic";
import { offlineMemoryBuffer } from "./testing";
import type { ExperienceInput, ExperienceModel, ExperienceSettings } from "./types";

/** Expert episodes on the first train tasks, as offline transitions. */
const offlineBuffer = (episodes: number) =>
  offlineMemoryBuffer(household, episodes, () => household.expert());

const initialState = (task: Task) => household.createEnvironment().reset(task);

/** Records what the synthetic environment hands the experience model. */
class SpyModel implements ExperienceModel {
  readonly name = "spy";
  inputs: ExperienceInput[] = [];
  async predict(input: ExperienceInput) {
    this.inputs.push(input);
    return {
      reasoning: "r",
      next: { text: `after ${input.action}`, actions: ["look"] },
      reward: 0,
      done: false,
      success: false,
      valid: true,
      model: "spy",
      latencyMs: 1,
    };
  }
}

const settings = (s: Partial<ExperienceSettings>): ExperienceSettings => ({
  k: 4,
  historyWindow: 2,
  reasoning: true,
  ...s,
});

describe("SyntheticEnvironment", () => {
  it("starts where the real environment starts and records reasoning and demonstrations per step", async () => {
    const buffer = await offlineBuffer(30);
    const env = new SyntheticEnvironment(
      "household",
      new RetrievalExperienceModel({ reasoning: true }),
      buffer,
      settings({ k: 8 }),
      initialState,
      50,
    );
    const task = household.task("train", 3); // a task whose room the buffer has seen
    const first = await env.reset(task);
    expect(first).toEqual(await household.createEnvironment().reset(task));
    const episode = await rollout(env, household.expert(), task, 50);
    expect(episode.steps.length).toBeGreaterThan(1);
    for (const step of episode.steps) expect(step.reasoning).toMatch(/\S/);
    const result = await new SyntheticEnvironment(
      "household",
      new RetrievalExperienceModel({ reasoning: true }),
      buffer,
      settings({ k: 8 }),
      initialState,
      50,
    );
    await result.reset(task);
    const step = await result.step(first.actions![0]!);
    const info = step.info as SyntheticStepInfo;
    expect(info.demonstrationIds).toHaveLength(8);
    expect(info.model).toBe("retrieval-exp-v1");
    // Grounded in the same task's offline episode, the expert succeeds in the synthetic environment too.
    expect(episode.success).toBe(true);
  });

  it("honours the ablation switches: k = 0 retrieves nothing, the history window bounds what the model sees", async () => {
    const buffer = await offlineBuffer(5);
    const spy = new SpyModel();
    const env = new SyntheticEnvironment(
      "household",
      spy,
      buffer,
      settings({ k: 0, historyWindow: 2 }),
      initialState,
      50,
    );
    await env.reset(household.task("train", 1));
    for (const action of ["look", "inventory", "look", "inventory"]) await env.step(action);
    expect(spy.inputs.map((i) => i.demonstrations.length)).toEqual([0, 0, 0, 0]);
    expect(spy.inputs.map((i) => i.history.length)).toEqual([0, 1, 2, 2]);
    expect(spy.inputs[3]!.history.map((h) => h.action)).toEqual(["inventory", "look"]);
    expect(spy.inputs[1]!.state.text).toBe("after look");

    const withRetrieval = new SpyModel();
    const env2 = new SyntheticEnvironment(
      "household",
      withRetrieval,
      buffer,
      settings({ k: 3, historyWindow: 0 }),
      initialState,
      50,
    );
    await env2.reset(household.task("train", 1));
    await env2.step("look");
    await env2.step("look");
    expect(withRetrieval.inputs.map((i) => [i.demonstrations.length, i.history.length])).toEqual([
      [3, 0],
      [3, 0],
    ]);
  });

  it("ends the episode at the step limit, and never stores an unparsable reply as a valid step", async () => {
    const broken: ExperienceModel = {
      name: "broken",
      predict: async (input) => ({
        reasoning: "",
        next: input.state,
        reward: 1,
        done: true,
        success: true,
        valid: true,
        model: "broken",
        latencyMs: 1,
        raw: "{oops",
        error: "the JSON is malformed",
      }),
    };
    const env = new SyntheticEnvironment("household", broken, undefined, settings({ k: 0 }), initialState, 3);
    await env.reset(household.task("train", 1));
    const a = await env.step("look");
    expect(a).toMatchObject({ valid: false, reward: 0, done: false, success: false });
    expect((a.info as SyntheticStepInfo).modelError).toBe("the JSON is malformed");
    expect((a.info as SyntheticStepInfo).raw).toBe("{oops");
    await env.step("look");
    expect((await env.step("look")).done).toBe(true);
    await expect(env.step("look")).rejects.toThrow(/after the episode ended/);
  });

  it("acts on the model's doubt when asked: MOReL halts an unsure step, MOPO penalises its reward, off leaves it", async () => {
    /** A model that rewards every step 1 and ends the episode, with a confidence the test sets. */
    const sure = (value: number): ExperienceModel => ({
      name: "sure",
      async predict(input) {
        return {
          reasoning: "r",
          next: { text: `after ${input.action}` },
          reward: 1,
          done: true,
          success: true,
          valid: true,
          model: "sure",
          latencyMs: 1,
          confidence: { value, parts: { familiarity: value } },
        };
      },
    });
    const task = household.task("train", 0);
    const step = async (value: number, pessimism?: ExperienceSettings["pessimism"]) => {
      const env = new SyntheticEnvironment(
        "household",
        sure(value),
        undefined,
        settings({ k: 0, ...(pessimism ? { pessimism } : {}) }),
        initialState,
        50,
      );
      await env.reset(task);
      return env.step("look");
    };
    const off = await step(0.2);
    expect(off).toMatchObject({ reward: 1, done: true, success: true });
    expect(off.info).toMatchObject({ confidence: 0.2, confidenceParts: { familiarity: 0.2 } });
    expect((off.info as SyntheticStepInfo).pessimism).toBeUndefined();

    const halt = { mode: "halt", threshold: 0.3, penalty: 0.5 } as const;
    const halted = await step(0.2, halt);
    // The model's success where it is guessing is no success: the episode ends there, with the penalty.
    expect(halted).toMatchObject({ reward: -0.5, done: true, success: false, valid: true });
    expect(halted.info).toMatchObject({ pessimism: "halted", predictedReward: 1 });
    expect(await step(0.9, halt)).toMatchObject({ reward: 1, success: true });

    const penalised = await step(0.2, { mode: "penalty", threshold: 0.3, penalty: 0.5 });
    expect(penalised.reward).toBeCloseTo(1 - 0.5 * 0.8);
    expect(penalised).toMatchObject({ done: true, success: true });
    expect(penalised.info).toMatchObject({ pessimism: "penalised", predictedReward: 1 });
  });

  it("judges a model that reports no confidence by its demonstrations: how familiar, how unanimous", async () => {
    const buffer = await offlineBuffer(30);
    const env = new SyntheticEnvironment(
      "household",
      new SpyModel(),
      buffer,
      settings({ k: 8 }),
      initialState,
      50,
    );
    const task = household.task("train", 3);
    await env.reset(task);
    const info = (await env.step("go to countertop 1")).info as SyntheticStepInfo;
    expect(info.confidence).toBeGreaterThan(0);
    expect(info.confidence).toBeLessThanOrEqual(1);
    expect(Object.keys(info.confidenceParts ?? {}).sort()).toEqual(["agreement", "familiarity"]);
  });
});
