import { describe, expect, it } from "vitest";
import { shop } from "../envs/shop";
import { rollout } from "../rollout";
import type { Task } from "../types";
import { SyntheticEnvironment, type SyntheticStepInfo } from "./synthetic";
import type { ExperienceInput, ExperienceModel, ExperienceSettings, Oracle } from "./types";

/** A model that is wrong about everything: its pages are placeholders, and "buy now" ends with a reward of 0.3. */
class WrongModel implements ExperienceModel {
  readonly name = "wrong";
  async predict(input: ExperienceInput) {
    const buys = input.action.toLowerCase() === "click[buy now]";
    return {
      reasoning: "r",
      next: { text: `made up after ${input.action}`, actions: ["click[buy now]"] },
      reward: buys ? 0.3 : 0,
      done: buys,
      success: false,
      valid: true,
      model: "wrong",
      latencyMs: 1,
    };
  }
}

const task: Task = shop.task("train", 0);
const expert = shop.expert();
const initialState = (t: Task) => shop.createEnvironment().reset(t);
const withOracle = (oracle: Oracle): ExperienceSettings => ({
  k: 0,
  historyWindow: 2,
  reasoning: true,
  oracle,
});
const synthetic = (oracle: Oracle) =>
  new SyntheticEnvironment("shop", new WrongModel(), undefined, withOracle(oracle), initialState, 15, () =>
    shop.createEnvironment(),
  );

/** The expert's actions and what the real shop answers to each. */
async function realEpisode() {
  return rollout(shop.createEnvironment(), expert, task, 15);
}

/** Plays the real episode's actions in an environment and returns its answers. */
async function replay(env: SyntheticEnvironment, actions: string[]) {
  await env.reset(task);
  const results = [];
  for (const action of actions) {
    const result = await env.step(action);
    results.push(result);
    if (result.done) break;
  }
  return results;
}

describe("the oracle diagnostic", () => {
  it("with every state and the reward from the real environment, the synthetic episode is the real one", async () => {
    const real = await realEpisode();
    expect(real.success).toBe(true);
    const env = synthetic({ states: "all", reward: true });
    const results = await replay(
      env,
      real.steps.map((s) => s.action),
    );
    expect(results.map((r) => r.observation.text).slice(0, -1)).toEqual(
      real.steps.slice(0, -1).map((s) => s.next.text),
    );
    const last = results.at(-1)!;
    expect(last.done).toBe(true);
    expect(last.reward).toBe(real.steps.at(-1)!.reward);
    expect(last.success).toBe(true);
    expect((last.info as SyntheticStepInfo).oracle).toEqual(["reward"]);
    expect((results[0]!.info as SyntheticStepInfo).oracle).toEqual(["reward", "state"]);
  });

  it("replaces only the states after matching actions, and keeps the model's reward when the reward is not the oracle's", async () => {
    const real = await realEpisode();
    const productClick = real.steps.findIndex((s) => /^click\[b0/i.test(s.action));
    expect(productClick).toBeGreaterThan(0);
    const results = await replay(
      synthetic({ states: "matching", actions: "^click\\[b0", reward: false }),
      real.steps.map((s) => s.action),
    );
    results.forEach((r, i) => {
      if (i === productClick) expect(r.observation.text).toBe(real.steps[i]!.next.text);
      else if (!r.done) expect(r.observation.text).toMatch(/^made up after/);
    });
    // The item page is real, the purchase is the model's: 0.3, not a success.
    expect(results.at(-1)!.reward).toBe(0.3);
    expect(results.at(-1)!.success).toBe(false);
  });

  it("ends the episode where the real one ends, not where the model says", async () => {
    const real = await realEpisode();
    const env = synthetic({ states: "none", reward: true });
    await env.reset(task);
    // Buying straight from the first page is impossible in the real shop: the model's purchase does not end it.
    const early = await env.step("click[buy now]");
    expect(early).toMatchObject({ done: false, reward: 0, success: false });
    // The expert's own actions end it where the real shop ends them, with the real reward.
    const results = await replay(
      env,
      real.steps.map((s) => s.action),
    );
    expect(results).toHaveLength(real.steps.length);
    expect(results.at(-1)).toMatchObject({ done: true, reward: real.steps.at(-1)!.reward, success: true });
  });

  it("is refused without a real environment", () => {
    expect(
      () =>
        new SyntheticEnvironment(
          "shop",
          new WrongModel(),
          undefined,
          withOracle({ states: "all", reward: false }),
          initialState,
          15,
        ),
    ).toThrow(/needs the real environment of "shop"/);
  });
});
