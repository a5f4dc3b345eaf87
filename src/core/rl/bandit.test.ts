/**
 * Learning sanity on the one-step bandit: GRPO and PPO each take a policy from chance (1/8) to > 90% success on
 * held-out tasks within a few hundred Adam steps. Sampled success is measured (not greedy): the policy must put
 * its probability on the right choice, not just rank it first.
 */
import { describe, expect, it } from "vitest";
import { LinearPolicy } from "../policy/linearPolicy";
import { LinearValue } from "../policy/value";
import { rollout } from "../rollout";
import { collectEpisode, collectGroup } from "./collect";
import { Grpo } from "./grpo";
import { Ppo } from "./ppo";
import { BanditEnvironment, banditCandidates, banditTasks, CHOICES } from "./testing";

const ITERATIONS = 15; // x 4 epochs x 4 minibatches = 240 Adam steps
const TASKS_PER_ITERATION = 8;
const GROUP = 8;
const train = banditTasks("train", 64);
const test = banditTasks("test", 100);

async function sampledSuccess(policy: LinearPolicy): Promise<number> {
  let wins = 0;
  for (const task of test) {
    const ep = await rollout(new BanditEnvironment(), policy.episode("eval", { record: false }), task, 1);
    wins += ep.success ? 1 : 0;
  }
  return wins / test.length;
}

const newPolicy = () => new LinearPolicy({ candidates: banditCandidates, seed: 3, dimension: 2 ** 14 });

describe("learning on a bandit", () => {
  it("GRPO goes from chance to > 90%", async () => {
    const policy = newPolicy();
    const before = await sampledSuccess(policy);
    expect(Math.abs(before - 1 / CHOICES)).toBeLessThan(0.1);
    const grpo = new Grpo(policy);
    for (let it = 0; it < ITERATIONS; it++) {
      const tasks = train.slice((it * TASKS_PER_ITERATION) % train.length).slice(0, TASKS_PER_ITERATION);
      const groups = await Promise.all(
        tasks.map((t) => collectGroup(() => new BanditEnvironment(), policy, t, 1, GROUP, `it${it}:${t.id}`)),
      );
      grpo.update(groups.map((g) => g.map((e) => e.decisions)));
    }
    expect(await sampledSuccess(policy)).toBeGreaterThan(0.9);
  });

  it("PPO goes from chance to > 90%, and its critic learns the success rate", async () => {
    const policy = newPolicy();
    const value = new LinearValue(policy.dimension);
    const before = await sampledSuccess(policy);
    expect(Math.abs(before - 1 / CHOICES)).toBeLessThan(0.1);
    const ppo = new Ppo(policy, value);
    let stats = ppo.update([]);
    for (let it = 0; it < ITERATIONS; it++) {
      const tasks = train.slice((it * TASKS_PER_ITERATION) % train.length).slice(0, TASKS_PER_ITERATION);
      const episodes = await Promise.all(
        tasks.flatMap((t) =>
          Array.from({ length: GROUP }, (_, g) =>
            collectEpisode(new BanditEnvironment(), policy, t, 1, `it${it}:${t.id}:g${g}`, value),
          ),
        ),
      );
      stats = ppo.update(episodes.map((e) => e.decisions));
    }
    expect(await sampledSuccess(policy)).toBeGreaterThan(0.9);
    expect(stats.valueLoss).toBeLessThan(0.05);
  });
});
