import type { Environment, Observation, StepResult, Task } from "../../types";
import { type OfficeGoal, requiredCalls, validateOfficeGoal } from "./goal";
import { availableCalls, type Episode, runCall, startEpisode } from "./tools";
import { generateWorld } from "./world";

export const OFFICE_DOMAIN = "office";
/** Tasks take two to five calls; the rest is room to search and recover. */
export const OFFICE_MAX_STEPS = 15;

export const OFFICE_TOOLS =
  "Tools: search_tickets(requester=|tag=), close_ticket(id), list_events(day=), cancel_event(id), list_files(folder=), read_file(path), delete_file(path).";

/** The first observation of a task: the tools and the request, as an assistant receives them. */
export function officeIntro(task: Task): string {
  return `Office assistant. ${OFFICE_TOOLS}\nRequest: ${task.instruction}`;
}

/**
 * One office episode at a time. The world is rebuilt from the task's goal on reset, and a change the task did not
 * ask for ends the episode at once (it cannot be undone), so success is exactly "the asked changes and no
 * other", and every episode is replayable from its actions alone.
 */
export class OfficeEnvironment implements Environment {
  readonly domain = OFFICE_DOMAIN;
  private episode: Episode | null = null;
  private required: Set<string> = new Set();
  private made: Set<string> = new Set();
  private goal: OfficeGoal | null = null;
  private steps = 0;
  private done = false;

  constructor(private readonly maxSteps = OFFICE_MAX_STEPS) {}

  async reset(task: Task): Promise<Observation> {
    return this.resetSync(task);
  }

  async step(action: string): Promise<StepResult> {
    return this.stepSync(action);
  }

  resetSync(task: Task): Observation {
    if (task.goal === undefined)
      throw new Error(`office task ${task.id} has no goal to build its world from`);
    this.goal = validateOfficeGoal(task.goal);
    const world = generateWorld(this.goal.world);
    this.episode = startEpisode(world);
    this.required = new Set(requiredCalls(world, this.goal));
    this.made = new Set();
    this.steps = 0;
    this.done = false;
    return { text: officeIntro(task), actions: availableCalls(this.episode) };
  }

  stepSync(action: string): StepResult {
    const episode = this.episode;
    if (episode === null || this.goal === null) throw new Error("office environment: step() before reset()");
    if (this.done) throw new Error("office environment: step() after the episode ended; reset() first");
    const outcome = runCall(episode, action);
    this.steps++;
    let text = outcome.text;
    let failed = false;
    if (outcome.change !== undefined) {
      if (this.required.has(outcome.change)) this.made.add(outcome.change);
      else failed = true;
    }
    const success = !failed && this.made.size === this.required.size;
    if (failed) text += "\nReview: that change was not requested; the request has failed.";
    else if (success) text += "\nAll requested changes are made.";
    this.done = failed || success || this.steps >= this.maxSteps;
    return {
      observation: { text, actions: availableCalls(episode) },
      reward: success ? 1 : 0,
      done: this.done,
      success,
      valid: outcome.valid,
      info: { step: this.steps, changes: this.goal.changes.map((c) => c.kind).join("+") },
    };
  }
}

export function replaySync(task: Task, actions: readonly string[]): StepResult[] {
  const env = new OfficeEnvironment();
  env.resetSync(task);
  const results: StepResult[] = [];
  for (const action of actions) {
    const result = env.stepSync(action);
    results.push(result);
    if (result.done) break;
  }
  return results;
}
