import type { ImportedDomain } from "../envs/imported/importedDomain";
import { demonstrationConfidence } from "../experience/confidence";
import {
  aggregate,
  type FidelityReport,
  scoreTransition,
  type TransitionScore,
} from "../experience/fidelity";
import type { ExperienceModel, ExperienceSettings } from "../experience/types";
import type { ReplayBuffer } from "../replay/buffer";
import { concurrently } from "../util/concurrently";
import { type HeldOutLog, heldOutLogs, spreadOverTasks, trainOnly } from "./heldOutLogs";

/**
 * The experience model's fidelity to the held-out logs, teacher-forced: experience/fidelity.ts's report (latency
 * left out, so that the same model and logs give the same figures), and how many held-out tasks it covers.
 */
export interface HeldOutFidelity extends Omit<FidelityReport, "latencyMsMean" | "latencyMsP95"> {
  tasks: number;
}

export interface HeldOutOptions {
  /** Logged steps scored at most, spread over the tasks (default DEFAULT_FIDELITY_STEPS). */
  steps?: number;
  /** Predictions in flight (an endpoint model gains from more; the embedded one does not need them). */
  concurrency?: number;
  signal?: AbortSignal;
}

/** Enough steps for figures to a few points, few enough for the embedded model to score in seconds. */
export const DEFAULT_FIDELITY_STEPS = 300;

/** A logged step to score: step `t` of a held-out log. */
export interface PickedStep {
  log: HeldOutLog;
  t: number;
}

/**
 * At most `cap` steps of the logs, a log at a time over tasks (spreadOverTasks) and a step at a time over logs,
 * each log's last step first: the end of an episode is where its outcome reward and its end are predicted.
 */
export function pickSteps(logs: readonly HeldOutLog[], cap: number): PickedStep[] {
  const ordered = spreadOverTasks(logs, logs.length).map((log) => {
    const n = log.steps.length;
    return { log, order: [n - 1, ...Array.from({ length: n - 1 }, (_, i) => i)] };
  });
  const total = Math.min(
    cap,
    ordered.reduce((a, o) => a + o.order.length, 0),
  );
  const out: PickedStep[] = [];
  for (let pass = 0; out.length < total; pass++)
    for (const { log, order } of ordered)
      if (pass < order.length && out.length < total) out.push({ log, t: order[pass]! });
  return out;
}

/**
 * Each picked held-out step as the experience model sees it in a synthetic episode, but with the logs' true
 * history, state and action (teacher forcing), and the demonstrations of the train logs only; its prediction
 * scored against the logged next state, reward and end.
 */
export async function heldOutFidelity(
  domain: ImportedDomain,
  model: ExperienceModel,
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  options: HeldOutOptions = {},
): Promise<HeldOutFidelity> {
  const logs = heldOutLogs(domain);
  const trainBuffer = buffer && trainOnly(buffer, [...new Set(logs.map((l) => l.task.id))]);
  const picks = pickSteps(logs, options.steps ?? DEFAULT_FIDELITY_STEPS);
  const scores = await concurrently(picks.length, options.concurrency ?? 1, (i) =>
    scoreStep(domain.name, picks[i]!, model, trainBuffer, settings, options.signal),
  );
  const { latencyMsMean: _mean, latencyMsP95: _p95, ...report } = aggregate(scores);
  return { ...report, tasks: new Set(picks.map((p) => p.log.task.id)).size };
}

async function scoreStep(
  domainName: string,
  { log, t }: PickedStep,
  model: ExperienceModel,
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  signal: AbortSignal | undefined,
): Promise<TransitionScore> {
  if (signal?.aborted) throw signal.reason;
  const { task } = log;
  const step = log.steps[t]!;
  const { state, action } = step;
  const demonstrations =
    buffer && settings.k > 0
      ? await buffer.similar(
          { domain: domainName, state: state.text, action, instruction: task.instruction },
          settings.k,
          settings.sources ? { sources: settings.sources } : {},
        )
      : [];
  const history = settings.historyWindow > 0 ? log.steps.slice(0, t).slice(-settings.historyWindow) : [];
  const predicted = await model.predict(
    { task, history, state, action, demonstrations },
    signal ? { signal } : {},
  );
  const usable = predicted.error === undefined;
  return scoreTransition(
    {
      next: predicted.next,
      reward: predicted.reward,
      done: predicted.done,
      success: usable && predicted.success,
      valid: usable && predicted.valid,
      latencyMs: predicted.latencyMs,
      // The confidence the synthetic environment would act on (experience/synthetic.ts).
      ...(usable
        ? { confidence: (predicted.confidence ?? demonstrationConfidence(action, demonstrations)).value }
        : {}),
    },
    { next: step.next, reward: step.reward, done: step.done, valid: step.valid, success: step.success },
    { instruction: task.instruction, state: state.text, action, history: history.map((s) => s.action) },
  );
}
