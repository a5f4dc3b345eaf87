import type { Environment, Observation, StepResult, Task } from "../../types";
import { type HouseholdGoal, validateHouseholdGoal } from "./goal";
import { generateRoom } from "./rooms";
import { admissibleCommands, applyAction } from "./rules";
import { roomOverview, statusLine } from "./text";
import { isGoalSatisfied, type World } from "./world";

export const HOUSEHOLD_DOMAIN = "household";
export const HOUSEHOLD_MAX_STEPS = 50;

/**
 * One ALFWorld-style episode at a time. Each instance owns its world, so many can run side by side; the world is
 * rebuilt from the task's goal on reset, which makes every episode replayable from its actions alone.
 */
export class HouseholdEnvironment implements Environment {
  readonly domain = HOUSEHOLD_DOMAIN;
  private world: World | null = null;
  private goal: HouseholdGoal | null = null;
  private admissible: string[] = [];
  private steps = 0;
  private done = false;

  constructor(private readonly maxSteps = HOUSEHOLD_MAX_STEPS) {}

  async reset(task: Task): Promise<Observation> {
    return this.resetSync(task);
  }

  async step(action: string): Promise<StepResult> {
    return this.stepSync(action);
  }

  /** The synchronous core of reset, for replay and benchmarks that do not need a promise per call. */
  resetSync(task: Task): Observation {
    if (task.goal === undefined)
      throw new Error(`household task ${task.id} has no goal to build its room from`);
    this.goal = validateHouseholdGoal(task.goal);
    this.world = generateRoom(this.goal);
    this.steps = 0;
    this.done = false;
    this.admissible = admissibleCommands(this.world);
    const text = `${roomOverview(this.world)}\n\nYour task is to: ${task.instruction}\n${statusLine(this.world)}`;
    return { text, actions: this.admissible.slice() };
  }

  stepSync(action: string): StepResult {
    const world = this.world;
    const goal = this.goal;
    if (world === null || goal === null) throw new Error("household environment: step() before reset()");
    if (this.done) throw new Error("household environment: step() after the episode ended; reset() first");
    const outcome = applyAction(world, action, this.admissible);
    if (outcome.valid) this.admissible = admissibleCommands(world);
    // Observations get copies: a caller that sorts or shuffles its actions must not change what is valid here.
    this.steps++;
    // An invalid action cannot complete the goal (the state is unchanged), so only valid ones are checked.
    const success = outcome.valid && isGoalSatisfied(world, goal);
    this.done = success || this.steps >= this.maxSteps;
    return {
      observation: { text: `${outcome.message}\n${statusLine(world)}`, actions: this.admissible.slice() },
      reward: success ? 1 : 0,
      done: this.done,
      success,
      valid: outcome.valid,
      info: { step: this.steps, taskType: goal.type },
    };
  }
}

/**
 * Runs a task's actions in a fresh environment and returns every step's result. Stops at the end of the episode,
 * so actions after it are ignored and the result can be shorter than `actions`.
 */
export async function replay(task: Task, actions: string[]): Promise<StepResult[]> {
  return replaySync(task, actions);
}

export function replaySync(task: Task, actions: readonly string[]): StepResult[] {
  const env = new HouseholdEnvironment();
  env.resetSync(task);
  const results: StepResult[] = [];
  for (const action of actions) {
    const result = env.stepSync(action);
    results.push(result);
    if (result.done) break;
  }
  return results;
}
