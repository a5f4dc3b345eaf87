/**
 * Learning tests' environments and training loops. The bandit is one step: "pick the {fruit}" with eight
 * "take X" candidates, one of which matches the instruction. Chance is 1/8; a policy that reads the instruction
 * gets 100%.
 */
import { shop } from "../envs/shop";
import { LinearPolicy } from "../policy/linearPolicy";
import { rollout } from "../rollout";
import type { Environment, Observation, Split, StepResult, Task } from "../types";
import { Rng } from "../util/random";
import { collectEpisode } from "./collect";
import type { RlUpdate } from "./update";

const FRUIT = [
  "apple",
  "banana",
  "cherry",
  "grape",
  "lemon",
  "mango",
  "olive",
  "peach",
  "pear",
  "plum",
  "kiwi",
  "melon",
  "apricot",
  "fig",
  "lime",
  "date",
];
/** Candidates per task; the success rate of a uniform policy is 1 / CHOICES. */
export const CHOICES = 8;

interface BanditGoal {
  target: string;
  offered: string[];
}

export function banditTask(split: Split, index: number): Task {
  const rng = new Rng(`bandit:${split}:${index}`);
  const offered = rng.sample(FRUIT, CHOICES);
  const target = rng.pick(offered);
  return {
    id: `bandit:${split}:${index}`,
    domain: "bandit",
    instruction: `pick the ${target}`,
    split,
    origin: "seed",
    goal: { target, offered } satisfies BanditGoal,
  };
}

export function banditTasks(split: Split, count: number): Task[] {
  return Array.from({ length: count }, (_, i) => banditTask(split, i));
}

export class BanditEnvironment implements Environment {
  readonly domain = "bandit";
  private goal: BanditGoal | undefined;

  async reset(task: Task): Promise<Observation> {
    this.goal = task.goal as BanditGoal;
    return { text: "A table with some fruit on it.", actions: this.goal.offered.map((f) => `take ${f}`) };
  }

  async step(action: string): Promise<StepResult> {
    const success = action === `take ${this.goal?.target}`;
    return {
      observation: { text: "Done.", actions: [] },
      reward: success ? 1 : 0,
      done: true,
      success,
      valid: true,
    };
  }
}

export const banditCandidates = (_task: Task, observation: Observation): string[] =>
  observation.actions ?? [];

/** Held-out success: sampled, or greedy (the likeliest choice at every step). */
export async function successRate(
  policy: LinearPolicy,
  makeEnv: () => Environment,
  tasks: readonly Task[],
  maxSteps: number,
  greedy: boolean,
): Promise<number> {
  let wins = 0;
  for (const task of tasks) {
    const agent = policy.episode("eval", { greedy, record: false });
    wins += (await rollout(makeEnv(), agent, task, maxSteps)).success ? 1 : 0;
  }
  return wins / tasks.length;
}

/**
 * Trains `rl`'s policy for `iterations`, each a group of `groupSize` episodes on every task `batch(it)` picks and
 * one update (recording the critic's values, if it has one); the stats of every update.
 */
export async function trainGroups(
  rl: RlUpdate,
  makeEnv: () => Environment,
  batch: (iteration: number) => readonly Task[],
  maxSteps: number,
  iterations: number,
  groupSize = 8,
) {
  const stats: ReturnType<RlUpdate["update"]>[] = [];
  for (let it = 0; it < iterations; it++) {
    const groups = await Promise.all(
      batch(it).map((t) =>
        Promise.all(
          Array.from({ length: groupSize }, (_, g) =>
            collectEpisode(makeEnv(), rl.policy, t, maxSteps, `it${it}:${t.id}:g${g}`, rl.value),
          ),
        ),
      ),
    );
    stats.push(rl.update(groups.map((g) => g.map((e) => e.decisions))));
  }
  return stats;
}

const banditTrain = banditTasks("train", 64);
const banditTest = banditTasks("test", 100);

export const banditPolicy = () =>
  new LinearPolicy({ candidates: banditCandidates, seed: 3, dimension: 2 ** 14 });

/** Sampled success on 100 held-out tasks: the policy must put its probability on the right choice. */
export const banditSuccess = (policy: LinearPolicy) =>
  successRate(policy, () => new BanditEnvironment(), banditTest, 1, false);

/** 8 train tasks an iteration, in turn, x a group of 8. */
export const trainOnBandit = (rl: RlUpdate, iterations: number) =>
  trainGroups(
    rl,
    () => new BanditEnvironment(),
    (it) => banditTrain.slice((it * 8) % 64).slice(0, 8),
    1,
    iterations,
  );

/** The real shop, from a blank policy: 8 of the first 200 train tasks an iteration (a seeded draw) x a group of 8. */
export const shopPolicy = () => new LinearPolicy({ candidates: shop.candidateActions, seed: 0 });

/** Success on the first 30 test tasks. */
export const shopSuccess = (policy: LinearPolicy, greedy: boolean) =>
  successRate(policy, () => shop.createEnvironment(), shop.tasks("test", 30), shop.maxSteps, greedy);

export function trainOnShop(rl: RlUpdate, iterations: number) {
  const rng = new Rng("shop-test-tasks");
  const pool = shop.tasks("train", 200);
  return trainGroups(
    rl,
    () => shop.createEnvironment(),
    () => rng.sample(pool, 8),
    shop.maxSteps,
    iterations,
  );
}
