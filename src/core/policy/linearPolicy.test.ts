import { describe, expect, it } from "vitest";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { rollout } from "../rollout";
import { Rng } from "../util/random";
import { LinearPolicy } from "./linearPolicy";
import { replayDecisions } from "./replayDecisions";

/** A policy with random weights, so sampling is not uniform and greedy play is not "first candidate". */
function randomPolicy(seed: number, candidates = shop.candidateActions): LinearPolicy {
  const policy = new LinearPolicy({ candidates, seed, dimension: 2 ** 14 });
  const rng = new Rng(`weights:${seed}`);
  for (let i = 0; i < policy.weights.length; i++) policy.weights[i] = rng.normal() * 0.3;
  return policy;
}

async function actions(policy: LinearPolicy, key: string, taskIndex = 0): Promise<string[]> {
  const task = shop.task("train", taskIndex);
  const ep = await rollout(shop.createEnvironment(), policy.episode(key), task, shop.maxSteps);
  return ep.steps.map((s) => s.action);
}

describe("LinearPolicy", () => {
  it("is deterministic: same seed and episode key, same actions", async () => {
    const a = await actions(randomPolicy(1), "it0:g0");
    const b = await actions(randomPolicy(1), "it0:g0");
    expect(a.length).toBeGreaterThan(1);
    expect(b).toEqual(a);
  });

  it("gives each episode key (and seed) its own sampling stream", async () => {
    const policy = randomPolicy(1);
    const runs = await Promise.all(["g0", "g1", "g2", "g3", "g4", "g5"].map((k) => actions(policy, k, 3)));
    expect(new Set(runs.map((r) => r.join("|"))).size).toBeGreaterThan(1);
    const otherSeed = await Promise.all(
      ["g0", "g1", "g2", "g3", "g4", "g5"].map((k) => actions(randomPolicy(2), k, 3)),
    );
    expect(otherSeed.map((r) => r.join("|"))).not.toEqual(runs.map((r) => r.join("|")));
  });

  it("greedy play ignores the sampling stream", async () => {
    const policy = randomPolicy(4);
    policy.greedy = true;
    expect(await actions(policy, "a")).toEqual(await actions(policy, "b"));
  });

  it("records one decision per step whose logprob is the sampled action's", async () => {
    const policy = randomPolicy(5, household.candidateActions);
    const task = household.task("train", 2);
    const agent = policy.episode("k");
    const ep = await rollout(household.createEnvironment(), agent, task, 12);
    expect(agent.decisions).toHaveLength(ep.steps.length);
    agent.decisions.forEach((d, t) => {
      expect(d.actions[d.chosen]).toBe(ep.steps[t]?.action);
      expect(d.logprob).toBeCloseTo(ep.logprobs[t] as number, 12);
      expect(d.logprob).toBeCloseTo(policy.logprobs(d.rows)[d.chosen] as number, 12);
      expect(d.step).toBe(t);
    });
    // Recomputing the decisions from the episode's steps gives the same features and log-probs.
    const replayed = replayDecisions(policy, task, ep.steps);
    replayed.forEach((d, t) => {
      const recorded = agent.decisions[t];
      expect(d.rows.codes).toEqual(recorded?.rows.codes);
      expect(d.chosen).toBe(recorded?.chosen);
      expect(d.logprob).toBeCloseTo(recorded?.logprob as number, 12);
    });
  });

  it("appends a demonstrated action the candidate source does not list", async () => {
    const policy = new LinearPolicy({ candidates: shop.candidateActions, dimension: 2 ** 12 });
    const task = shop.task("train", 0);
    const ep = await rollout(shop.createEnvironment(), shop.expert(), task, shop.maxSteps);
    const [first] = replayDecisions(policy, task, ep.steps);
    // The shop expert searches with the goal product's title, which no instruction-derived query equals.
    expect(first?.actions[first.chosen]).toBe(ep.steps[0]?.action);
    expect(first?.chosen).toBe((first?.actions.length ?? 0) - 1);
  });

  it("falls back to a fixed action when a state lists no candidates", async () => {
    const policy = new LinearPolicy({
      candidates: () => [],
      dimension: 2 ** 12,
      fallbackAction: "look",
    });
    const decision = await policy.act(shop.task("train", 0), [], { text: "a state from a model" });
    expect(decision).toEqual({ action: "look", logprob: 0 });
  });

  it("validates its settings", () => {
    expect(() => new LinearPolicy({ candidates: () => [], dimension: 1000 })).toThrow(/power of two/);
    expect(() => new LinearPolicy({ candidates: () => [], temperature: 0 })).toThrow(/temperature/);
  });
});
