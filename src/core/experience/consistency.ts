import type { RealDomain } from "../envs/domain";
import type { Observation, Policy, Step, Task } from "../types";
import { actionTemplate, normaliseAction } from "./admissible";
import { tokenF1 } from "./fidelity";
import type { SyntheticEnvironment } from "./synthetic";

/**
 * Closed-loop episodes: a policy plays the synthetic environment on its own states (as training does), and the real
 * environment is stepped with the same actions beside it. Teacher-forced fidelity (fidelityRun.ts) shows the model
 * the real history at every step, so it cannot see a world the model invented drift from itself; these can.
 */
export interface PairedStep {
  action: string;
  /** The action's kind (admissible.ts actionTemplate) in the synthetic state it was taken in. */
  template: string;
  synthetic: { next: Observation; valid: boolean; done: boolean; success: boolean; reward: number };
  /** The real environment's answer to the same actions (absent once the real episode has ended). */
  real?: { next: Observation; valid: boolean; done: boolean; success: boolean; reward: number };
}

export interface PairedEpisode {
  task: Task;
  steps: PairedStep[];
}

export async function pairedEpisodes(
  domain: RealDomain,
  synthetic: () => SyntheticEnvironment,
  policy: (episode: number) => Policy,
  tasks: readonly Task[],
): Promise<PairedEpisode[]> {
  const out: PairedEpisode[] = [];
  for (const [i, task] of tasks.entries()) {
    const env = synthetic();
    const real = domain.createEnvironment();
    try {
      let state = await env.reset(task);
      await real.reset(task);
      let realDone = false;
      const history: Step[] = [];
      const steps: PairedStep[] = [];
      const actor = policy(i);
      for (let t = 0; t < domain.maxSteps; t++) {
        const { action } = await actor.act(task, history, state);
        const s = await env.step(action);
        const r = realDone ? undefined : await real.step(action);
        if (r?.done) realDone = true;
        steps.push({
          action,
          template: actionTemplate(action, state),
          synthetic: {
            next: s.observation,
            valid: s.valid,
            done: s.done,
            success: s.success,
            reward: s.reward,
          },
          ...(r
            ? {
                real: {
                  next: r.observation,
                  valid: r.valid,
                  done: r.done,
                  success: r.success,
                  reward: r.reward,
                },
              }
            : {}),
        });
        history.push({
          state,
          action,
          next: s.observation,
          reward: s.reward,
          done: s.done,
          success: s.success,
          valid: s.valid,
        });
        state = s.observation;
        if (s.done) break;
      }
      out.push({ task, steps });
    } finally {
      await real.close?.();
    }
  }
  return out;
}

export interface ConsistencyReport {
  episodes: number;
  steps: number;
  /**
   * An action taken again, where the real environment answered both times alike (nothing it shows there changed):
   * the share of those where the model answered alike too. Below 1, the world the model invents does not stay put.
   */
  revisits: number;
  revisitConsistency: number | null;
  /** Where the real answers differed (something changed there), the share where the model's differed too. */
  changes: number;
  changeSensitivity: number | null;
  /** Closed-loop token F1 of the model's next states against the real ones, per kind of action. */
  byActionType: Record<string, { steps: number; tokenF1: number; validAgreement: number }>;
  /** Success of the synthetic episodes against the real outcome of the same actions. */
  syntheticSuccess: number;
  realSuccess: number;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function consistencyOf(episodes: readonly PairedEpisode[]): ConsistencyReport {
  let revisits = 0;
  let alike = 0;
  let changes = 0;
  let sensed = 0;
  const perType = new Map<string, { steps: number; f1: number; valid: number }>();
  let steps = 0;
  let syntheticSuccess = 0;
  let realSuccess = 0;
  for (const episode of episodes) {
    const seen = new Map<string, PairedStep>();
    for (const step of episode.steps) {
      steps++;
      if (step.real) {
        const t = perType.get(step.template) ?? { steps: 0, f1: 0, valid: 0 };
        t.steps++;
        t.f1 += tokenF1(step.synthetic.next.text, step.real.next.text);
        t.valid += step.synthetic.valid === step.real.valid ? 1 : 0;
        perType.set(step.template, t);
      }
      const key = normaliseAction(step.action);
      const before = seen.get(key);
      if (before?.real && step.real && before.synthetic.valid && step.synthetic.valid && step.real.valid) {
        const same = (a: Observation, b: Observation) => a.text === b.text;
        if (same(before.real.next, step.real.next)) {
          revisits++;
          if (same(before.synthetic.next, step.synthetic.next)) alike++;
        } else {
          changes++;
          if (!same(before.synthetic.next, step.synthetic.next)) sensed++;
        }
      }
      if (step.synthetic.valid) seen.set(key, step);
    }
    const last = episode.steps[episode.steps.length - 1];
    if (last?.synthetic.success) syntheticSuccess++;
    if (episode.steps.some((s) => s.real?.success)) realSuccess++;
  }
  return {
    episodes: episodes.length,
    steps,
    revisits,
    revisitConsistency: revisits === 0 ? null : round(alike / revisits),
    changes,
    changeSensitivity: changes === 0 ? null : round(sensed / changes),
    byActionType: Object.fromEntries(
      [...perType]
        .sort((a, b) => b[1].steps - a[1].steps)
        .map(([template, t]) => [
          template,
          { steps: t.steps, tokenF1: round(t.f1 / t.steps), validAgreement: round(t.valid / t.steps) },
        ]),
    ),
    syntheticSuccess: episodes.length === 0 ? 0 : round(syntheticSuccess / episodes.length),
    realSuccess: episodes.length === 0 ? 0 : round(realSuccess / episodes.length),
  };
}
