import type { Observation, Policy, PolicyDecision, Step, Task } from "../../types";
import { decisionRng } from "../decisionRng";
import { changeCall, type OfficeChange, type OfficeGoal, validateOfficeGoal } from "./goal";
import { callKey, type Episode, runCall, startEpisode } from "./tools";
import { generateWorld, type World } from "./world";

/** What a policy may choose from: the calls the observation lists. */
export function officeCandidateActions(_task: Task, observation: Observation): string[] {
  return observation.actions && observation.actions.length > 0
    ? observation.actions.slice()
    : ['list_files(folder="/notes")'];
}

export interface Reconstruction {
  goal: OfficeGoal;
  world: World;
  episode: Episode;
  /** Changes the history made, as call keys. */
  made: Set<string>;
}

/**
 * The true state behind an episode: the world rebuilt from the goal with the history's calls run again. The
 * environment is deterministic, so this is its own state, and a policy holding no per-episode state can serve
 * many episodes at once.
 */
export function reconstructEpisode(task: Task, history: readonly Step[]): Reconstruction {
  const goal = validateOfficeGoal(task.goal);
  const world = generateWorld(goal.world);
  const episode = startEpisode(world);
  const made = new Set<string>();
  for (const step of history) {
    const outcome = runCall(episode, step.action);
    if (outcome.change !== undefined) made.add(callKey(outcome.change));
  }
  return { goal, world, episode, made };
}

/** The lookup whose answer lists the record a change acts on. */
function lookupFor(world: World, change: OfficeChange, shown: readonly string[]): string {
  switch (change.kind) {
    case "close_ticket": {
      const ticket = world.tickets.find((t) => t.id === change.ticket);
      return `search_tickets(requester="${ticket?.requester.toLowerCase()}")`;
    }
    case "cancel_event": {
      const event = world.events.find((e) => e.id === change.event);
      return `list_events(day="${event?.day}")`;
    }
    case "delete_file": {
      const file = world.files.find((f) => f.path === change.path);
      return `list_files(folder="${file?.folder}")`;
    }
    case "close_noted": {
      const read = `read_file("${change.note}")`;
      return shown.includes(read) ? read : 'list_files(folder="/notes")';
    }
  }
}

/** The expert's next call: the first change still to make, if its record is on screen, else the lookup for it. */
export function expertCall(reconstruction: Reconstruction): string {
  const { goal, world, episode, made } = reconstruction;
  for (const change of goal.changes) {
    const call = changeCall(world, change);
    if (call === undefined || made.has(callKey(call))) continue;
    return episode.shown.includes(call) ? call : lookupFor(world, change, episode.shown);
  }
  // Every change is made, so the episode has ended; any lookup is harmless.
  return 'list_files(folder="/notes")';
}

/** The reference policy: looks each record up by what the request says about it, then changes it. */
export function officeExpert(): Policy {
  return {
    async act(task: Task, history: Step[]): Promise<PolicyDecision> {
      return { action: expertCall(reconstructEpisode(task, history)) };
    },
  };
}

export function officeRandom(seed: number): Policy {
  return {
    async act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision> {
      const rng = decisionRng(seed, task, history);
      const candidates = officeCandidateActions(task, observation);
      return { action: rng.pick(candidates), logprob: -Math.log(candidates.length) };
    },
  };
}

export function officeNoisy(seed: number, epsilon: number): Policy {
  if (!(epsilon >= 0 && epsilon <= 1))
    throw new Error(`noisy policy: epsilon must be in [0, 1], got ${epsilon}`);
  const expert = officeExpert();
  return {
    async act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision> {
      const rng = decisionRng(seed, task, history);
      if (!rng.chance(epsilon)) return expert.act(task, history, observation);
      return { action: rng.pick(officeCandidateActions(task, observation)) };
    },
  };
}
