import type { RealDomain } from "../envs/domain";
import type { ReplayBuffer } from "../replay/buffer";
import { stepOf } from "../step";
import type { Step, StepResult, Task } from "../types";
import { actionTemplate } from "./admissible";
import { teacherForcedInput } from "./teacherForcing";
import type { ExperienceModel, ExperienceSettings } from "./types";

/**
 * Whether the experience model tells a right action from a wrong one of the same kind at the same state: the
 * comparison a policy's exploration puts to it. Teacher-forced fidelity scores the actions a behaviour policy took;
 * a learning policy also tries the other entries of a list, and a model that pays every "close_ticket(…)" alike
 * teaches it nothing about which one to close. At real states of a behaviour policy's episodes, every admissible
 * action of the taken action's kind (up to `perState`) is tried in the real environment (replayed from the
 * episode's start: the environments are deterministic) and predicted by the model.
 */
export interface AlternativesOptions {
  /** Choice states to measure: states where an action of the kind ends the episode, for real or predicted. */
  states: number;
  perState: number;
  task: (episode: number) => Task;
  epsilon: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
}

export interface AlternativesReport {
  states: number;
  /** (state, action) pairs predicted. */
  pairs: number;
  /** Mean predicted reward of the actions that succeed for real. */
  rightPaid: number | null;
  /** Mean predicted reward of the actions that end the episode in failure for real. */
  wrongPaid: number | null;
  /** Of the wrong endings, the share the model predicts as successes. */
  wrongPredictedSuccess: number | null;
  /**
   * At states whose alternatives include a real success and a real failure: the share where the model's highest
   * predicted reward falls on a real success (ties count as the share of tied actions that succeed). 0.5 for a
   * model that cannot tell them apart, on states with two alternatives.
   */
  pickAccuracy: number | null;
  contested: number;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

export async function measureAlternatives(
  domain: RealDomain,
  model: ExperienceModel,
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  options: AlternativesOptions,
): Promise<AlternativesReport> {
  const policy = domain.noisy(options.seed, options.epsilon);
  const right: number[] = [];
  const wrong: number[] = [];
  const wrongSuccess: number[] = [];
  const picks: number[] = [];
  let states = 0;
  let pairs = 0;

  /** The real outcome of `action` after the episode's `history`, on a fresh environment. */
  async function realOutcome(task: Task, history: readonly Step[], action: string): Promise<StepResult> {
    const env = domain.createEnvironment();
    try {
      await env.reset(task);
      for (const step of history) await env.step(step.action);
      return await env.step(action);
    } finally {
      await env.close?.();
    }
  }

  for (let episode = 0; states < options.states && episode < options.states; episode++) {
    const task = options.task(episode);
    const env = domain.createEnvironment();
    try {
      let state = await env.reset(task);
      const history: Step[] = [];
      for (let t = 0; t < domain.maxSteps && states < options.states; t++) {
        const { action } = await policy.act(task, history, state);
        const template = actionTemplate(action, state);
        const alternatives = [
          action,
          ...(state.actions ?? []).filter((a) => a !== action && actionTemplate(a, state) === template),
        ].slice(0, options.perState);
        if (alternatives.length > 1) {
          const outcomes = await Promise.all(
            alternatives.map(async (alternative) => {
              const real = await realOutcome(task, history, alternative);
              const predicted = await model.predict(
                await teacherForcedInput(buffer, settings, domain.name, task, history, state, alternative),
              );
              return { real, predicted };
            }),
          );
          if (outcomes.some((o) => o.real.done || o.predicted.done)) {
            states++;
            pairs += outcomes.length;
            for (const { real, predicted } of outcomes) {
              const paid = predicted.error === undefined && predicted.done ? predicted.reward : 0;
              if (real.success) right.push(paid);
              else if (real.done) {
                wrong.push(paid);
                wrongSuccess.push(predicted.error === undefined && predicted.success ? 1 : 0);
              }
            }
            if (
              outcomes.some((o) => o.real.success) &&
              outcomes.some((o) => o.real.done && !o.real.success)
            ) {
              const paid = outcomes.map((o) => (o.predicted.done ? o.predicted.reward : 0));
              const top = Math.max(...paid);
              const tied = outcomes.filter((_, i) => paid[i] === top);
              picks.push(tied.filter((o) => o.real.success).length / tied.length);
            }
            options.onProgress?.(states, options.states);
          }
        }
        const real = await env.step(action);
        history.push(stepOf(state, action, real));
        state = real.observation;
        if (real.done) break;
      }
    } finally {
      await env.close?.();
    }
  }
  return {
    states,
    pairs,
    rightPaid: mean(right),
    wrongPaid: mean(wrong),
    wrongPredictedSuccess: mean(wrongSuccess),
    pickAccuracy: mean(picks),
    contested: picks.length,
  };
}
