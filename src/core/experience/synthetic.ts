import type { Demonstration, ReplayBuffer } from "../replay/buffer";
import type { Environment, Observation, Step, StepResult, Task } from "../types";
import type { ExperienceModel, ExperiencePrediction, ExperienceSettings } from "./types";

/** What a synthetic step carries besides the StepResult: everything the UI and the store need to audit it. */
export interface SyntheticStepInfo extends Record<string, unknown> {
  reasoning: string;
  demonstrationIds: string[];
  model: string;
  latencyMs: number;
  promptTokens?: number;
  completionTokens?: number;
  raw?: string;
  modelError?: string;
}

/**
 * DreamGym's synthetic environment: the experience model plus the replay buffer's top-k, behind the same
 * Environment contract as a real one, so rollouts, GRPO, PPO and evaluation cannot tell them apart. The
 * ablation switches live in the settings: k = 0 (no replay), historyWindow = 0 (no history), reasoning off.
 */
export class SyntheticEnvironment implements Environment {
  private task: Task | undefined;
  private state: Observation | undefined;
  private history: Step[] = [];
  private finished = false;

  constructor(
    readonly domain: string,
    private readonly model: ExperienceModel,
    private readonly buffer: ReplayBuffer | undefined,
    private readonly settings: ExperienceSettings,
    /** The first state of a task: synthetic episodes start where real ones do (from the task's real reset). */
    private readonly initialState: (task: Task) => Promise<Observation>,
    private readonly maxSteps: number,
  ) {}

  async reset(task: Task): Promise<Observation> {
    this.task = task;
    this.history = [];
    this.finished = false;
    this.state = await this.initialState(task);
    return this.state;
  }

  async step(action: string): Promise<StepResult> {
    const task = this.task;
    const state = this.state;
    if (!task || !state) throw new Error("SyntheticEnvironment.step called before reset");
    if (this.finished) throw new Error("SyntheticEnvironment.step called after the episode ended");
    const demonstrations = await this.retrieve(task, state, action);
    const history = this.settings.historyWindow > 0 ? this.history.slice(-this.settings.historyWindow) : [];
    const prediction = await this.model.predict({ task, history, state, action, demonstrations });
    const outOfSteps = this.history.length + 1 >= this.maxSteps;
    const result = toStepResult(prediction, demonstrations, outOfSteps);
    this.history.push({
      state,
      action,
      reasoning: prediction.reasoning,
      next: result.observation,
      reward: result.reward,
      done: result.done,
      success: result.success,
      valid: result.valid,
    });
    this.state = result.observation;
    this.finished = result.done;
    return result;
  }

  private async retrieve(task: Task, state: Observation, action: string): Promise<Demonstration[]> {
    if (!this.buffer || this.settings.k <= 0) return [];
    return this.buffer.similar(
      { domain: this.domain, state: state.text, action, instruction: task.instruction },
      this.settings.k,
      this.settings.sources ? { sources: this.settings.sources } : {},
    );
  }
}

function toStepResult(
  p: ExperiencePrediction,
  demonstrations: Demonstration[],
  outOfSteps: boolean,
): StepResult {
  const info: SyntheticStepInfo = {
    reasoning: p.reasoning,
    demonstrationIds: demonstrations.map((d) => d.id),
    model: p.model,
    latencyMs: p.latencyMs,
    ...(p.usage ? { promptTokens: p.usage.promptTokens, completionTokens: p.usage.completionTokens } : {}),
    ...(p.raw !== undefined ? { raw: p.raw } : {}),
    ...(p.error !== undefined ? { modelError: p.error } : {}),
  };
  // A reply that could not be used is a no-op for the agent, and is marked so that it is never stored as valid.
  const valid = p.error === undefined && p.valid;
  return {
    observation: p.next,
    reward: valid ? p.reward : 0,
    done: (valid && p.done) || outOfSteps,
    success: valid && p.done && p.success,
    valid,
    info,
  };
}
