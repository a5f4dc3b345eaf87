/**
 * Learning sanity on the one-step bandit: GRPO and PPO each take a policy from chance (1/8) to > 90% success on
 * held-out tasks within a few hundred Adam steps. Sampled success is measured (not greedy): the policy must put
 * its probability on the right choice, not just rank it first.
 */
import { describe, expect, it } from "vitest";
import { LinearValue } from "../policy/value";
import { Grpo } from "./grpo";
import { Ppo } from "./ppo";
import { banditPolicy, banditSuccess, CHOICES, trainOnBandit } from "./testing";

const ITERATIONS = 15; // x 4 epochs x 4 minibatches = 240 Adam steps

describe("learning on a bandit", () => {
  it("GRPO goes from chance to > 90%", async () => {
    const policy = banditPolicy();
    expect(Math.abs((await banditSuccess(policy)) - 1 / CHOICES)).toBeLessThan(0.1);
    await trainOnBandit(new Grpo(policy), ITERATIONS);
    expect(await banditSuccess(policy)).toBeGreaterThan(0.9);
  });

  it("PPO goes from chance to > 90%, and its critic learns the success rate", async () => {
    const policy = banditPolicy();
    expect(Math.abs((await banditSuccess(policy)) - 1 / CHOICES)).toBeLessThan(0.1);
    const ppo = new Ppo(policy, new LinearValue(policy.dimension));
    expect(ppo.update([]).valueLoss).toBe(0);
    const stats = await trainOnBandit(ppo, ITERATIONS);
    expect(await banditSuccess(policy)).toBeGreaterThan(0.9);
    expect(stats.at(-1)!.valueLoss).toBeLessThan(0.05);
  });
});
