/**
 * A one-step bandit environment for learning tests: "pick the {fruit}" with eight "take X" candidates, one of
 * which matches the instruction. Chance is 1/8; a policy that reads the instruction gets 100%.
 */
import type { Environment, Observation, Split, StepResult, Task } from "../types";
import { Rng } from "../util/random";

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
