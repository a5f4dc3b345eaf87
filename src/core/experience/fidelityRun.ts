import type { RealDomain } from "../envs/domain";
import type { ReplayBuffer } from "../replay/buffer";
import { stepOf } from "../step";
import type { Environment, Step, StepResult, Task } from "../types";
import { actionTemplate } from "./admissible";
import { demonstrationConfidence } from "./confidence";
import { aggregate, type FidelityReport, scoreTransition, type TransitionScore } from "./fidelity";
import { teacherForcedInput } from "./teacherForcing";
import type { ExperienceInput, ExperienceModel, ExperiencePrediction, ExperienceSettings } from "./types";

export interface FidelityOptions {
  transitions: number;
  /**
   * The held-out task of each episode (the buffer holds train tasks only): the test split the table reports, or
   * the validation tasks, for choosing the model's settings without looking at the test tasks (train/heldOut.ts).
   */
  task: (episode: number) => Task;
  /** Behaviour policy that produces the real transitions: a noisy expert covers successes, failures and invalid actions. */
  epsilon: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
  /** Sees every prediction with its inputs and the real outcome (e.g. to have an LLM judge score a sample). */
  onPrediction?: (
    input: ExperienceInput,
    prediction: ExperiencePrediction,
    real: StepResult,
  ) => Promise<void> | void;
  signal?: AbortSignal;
}

export interface FidelityResult {
  report: FidelityReport;
  /** Per-transition figures, for the UI and for finding the worst predictions. */
  scores: TransitionScore[];
}

/**
 * Replays real transitions through the experience model: at every real step the model sees the real history,
 * state and action (teacher forcing) and its prediction is compared with what the real environment did.
 */
export async function measureFidelity(
  domain: RealDomain,
  model: ExperienceModel,
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  options: FidelityOptions,
): Promise<FidelityResult> {
  const policy = domain.noisy(options.seed, options.epsilon);
  const scores: TransitionScore[] = [];
  for (let episode = 0; scores.length < options.transitions; episode++) {
    if (options.signal?.aborted) throw options.signal.reason;
    const task = options.task(episode);
    const env = domain.createEnvironment();
    try {
      await scoreEpisode(env, task);
    } finally {
      await env.close?.();
    }
  }
  return { report: aggregate(scores), scores };

  /** One episode of the behaviour policy, each real step scored against the model's prediction of it. */
  async function scoreEpisode(env: Environment, task: Task): Promise<void> {
    let state = await env.reset(task);
    const history: Step[] = [];
    for (let t = 0; t < domain.maxSteps && scores.length < options.transitions; t++) {
      const { action } = await policy.act(task, history, state);
      const real = await env.step(action);
      const input = await teacherForcedInput(buffer, settings, domain.name, task, history, state, action);
      const { demonstrations, history: shownHistory } = input;
      const predicted = await model.predict(input, options.signal ? { signal: options.signal } : {});
      await options.onPrediction?.(input, predicted, real);
      scores.push({
        ...scoreTransition(
          {
            next: predicted.next,
            reward: predicted.reward,
            done: predicted.done,
            success: predicted.error === undefined && predicted.success,
            latencyMs: predicted.latencyMs,
            valid: predicted.error === undefined && predicted.valid,
            // The same confidence the synthetic environment would act on (synthetic.ts).
            ...(predicted.error === undefined
              ? {
                  confidence: (predicted.confidence ?? demonstrationConfidence(action, demonstrations)).value,
                }
              : {}),
          },
          {
            next: real.observation,
            reward: real.reward,
            done: real.done,
            valid: real.valid,
            success: real.success,
          },
          {
            instruction: task.instruction,
            state: state.text,
            action,
            history: shownHistory.map((s) => s.action),
          },
        ),
        template: actionTemplate(action, state),
      });
      options.onProgress?.(scores.length, options.transitions);
      history.push(stepOf(state, action, real));
      state = real.observation;
      if (real.done) break;
    }
  }
}
