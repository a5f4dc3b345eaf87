import type { Observation, Policy, PolicyDecision, Step, Task } from "../../types";
import { decisionRng } from "../decisionRng";
import { type HouseholdGoal, validateHouseholdGoal } from "./goal";
import { expertCommand, type Knowledge } from "./planner";
import { generateRoom } from "./rooms";
import { applyAction } from "./rules";
import { isAccessible, receptacleNamed, type World } from "./world";

/** What a policy may choose from: the admissible commands the observation lists (ALFWorld's candidate set). */
export function householdCandidateActions(_task: Task, observation: Observation): string[] {
  return observation.actions && observation.actions.length > 0
    ? observation.actions.slice()
    : ["look", "inventory"];
}

export interface Reconstruction {
  goal: HouseholdGoal;
  world: World;
  knowledge: Knowledge;
}

/**
 * The true state behind an episode: the room rebuilt from the goal, with the history's actions replayed, and the
 * receptacles the agent has seen on the way. Because the environment is deterministic this equals the
 * environment's own state, so a policy holding no per-episode state can serve many episodes at once.
 */
export function reconstructEpisode(task: Task, history: readonly Step[]): Reconstruction {
  const goal = validateHouseholdGoal(task.goal);
  const world = generateRoom(goal);
  const seen = new Set<string>();
  for (const step of history) {
    applyAction(world, step.action);
    const here = world.at === null ? undefined : receptacleNamed(world, world.at);
    if (here && isAccessible(here)) seen.add(here.name);
  }
  return { goal, world, knowledge: { seen } };
}

export interface HouseholdExpertOptions {
  /** Walk straight to the objects instead of searching for them (shorter, but unlike real play). */
  omniscient?: boolean;
}

/** The reference policy: ALFWorld's handcoded expert, searching for what it has not seen (see planner.ts). */
export function householdExpert(options: HouseholdExpertOptions = {}): Policy {
  return {
    async act(task: Task, history: Step[]): Promise<PolicyDecision> {
      const { goal, world, knowledge } = reconstructEpisode(task, history);
      return { action: expertCommand(world, goal, options.omniscient ? undefined : knowledge) };
    },
  };
}

export function householdRandom(seed: number): Policy {
  return {
    async act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision> {
      const rng = decisionRng(seed, task, history);
      const candidates = householdCandidateActions(task, observation);
      return { action: rng.pick(candidates), logprob: -Math.log(candidates.length) };
    },
  };
}

export function householdNoisy(seed: number, epsilon: number): Policy {
  if (!(epsilon >= 0 && epsilon <= 1))
    throw new Error(`noisy policy: epsilon must be in [0, 1], got ${epsilon}`);
  const expert = householdExpert();
  return {
    async act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision> {
      const rng = decisionRng(seed, task, history);
      if (!rng.chance(epsilon)) return expert.act(task, history, observation);
      return { action: rng.pick(householdCandidateActions(task, observation)) };
    },
  };
}
