import type { ImportedDomain } from "../envs/imported/importedDomain";
import { SyntheticEnvironment } from "../experience/synthetic";
import type { ExperienceModel, ExperienceSettings } from "../experience/types";
import type { ReplayBuffer } from "../replay/buffer";
import { concurrently } from "../util/concurrently";
import { type HeldOutLog, heldOutLogs, spreadOverTasks, trainOnly } from "./heldOutLogs";

/** Predicted outcomes of held-out logged episodes beside the logged ones: is the model's "success" a success? */
export interface OutcomeCalibration {
  /** Held-out logged episodes replayed. */
  episodes: number;
  /** The logs' success rate: the base rate. */
  base: number;
  /** The share the experience model ended in success. */
  predicted: number;
  /** Of the episodes the model ended in success, the share the logs call successes (null: it ended none so). */
  precision: number | null;
  /** Of the logged successes, the share the model ended in success (null: none logged). */
  recall: number | null;
  /** Of the logged failures, the share the model ended in success (null: none logged). */
  falseSuccess: number | null;
  /** Mean episode reward (sum over its steps) the model paid, and the logs' mean. */
  reward: number;
  logReward: number;
}

export interface Calibration extends OutcomeCalibration {
  /** Predictions made. */
  steps: number;
  /** The share of episodes whose logged actions ran out before the model ended them. */
  unfinished: number;
}

export interface CalibrationResult {
  overall: Calibration;
  /** The same per logged policy label (heldOutLogs.ts), in the order the labels first appear. */
  byPolicy: Record<string, OutcomeCalibration>;
}

export interface CalibrationOptions {
  /** Held-out logs replayed at most, spread over the tasks (default DEFAULT_CALIBRATION_EPISODES). */
  episodes?: number;
  concurrency?: number;
  signal?: AbortSignal;
}

/** More than the held-out logs of most imported domains: a cap for large ones, not a sample of small ones. */
export const DEFAULT_CALIBRATION_EPISODES = 200;

/** One held-out log replayed: its outcome and the model's. */
export interface Replayed {
  policy: string;
  logged: boolean;
  logReward: number;
  predicted: boolean;
  reward: number;
  steps: number;
  finished: boolean;
}

/**
 * Each held-out log's actions played in the synthetic environment, closed-loop (the model's own states chained,
 * as in a synthetic episode), from the logged first state, until the model ends the episode or the actions run
 * out; its outcome against the logged one.
 */
export async function outcomeCalibration(
  domain: ImportedDomain,
  model: ExperienceModel,
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  options: CalibrationOptions = {},
): Promise<CalibrationResult> {
  const all = heldOutLogs(domain);
  const trainBuffer = buffer && trainOnly(buffer, [...new Set(all.map((l) => l.task.id))]);
  // An imported domain has no real environment to put in the model's place.
  const { oracle: _oracle, ...played } = settings;
  const logs = spreadOverTasks(all, options.episodes ?? DEFAULT_CALIBRATION_EPISODES);
  const replayed = await concurrently(logs.length, options.concurrency ?? 1, (i) => {
    const log = logs[i]!;
    const env = new SyntheticEnvironment(
      domain.name,
      model,
      trainBuffer,
      played,
      async () => log.steps[0]!.state,
      domain.maxSteps,
    );
    return replay(env, log, options.signal);
  });
  return calibrationOf(replayed);
}

async function replay(env: SyntheticEnvironment, log: HeldOutLog, signal?: AbortSignal): Promise<Replayed> {
  await env.reset(log.task);
  let reward = 0;
  let steps = 0;
  let predicted = false;
  let finished = false;
  for (const { action } of log.steps) {
    if (signal?.aborted) throw signal.reason;
    const result = await env.step(action);
    steps++;
    reward += result.reward;
    if (result.done) {
      predicted = result.success;
      finished = true;
      break;
    }
  }
  return {
    policy: log.policy,
    logged: log.success,
    logReward: log.steps.reduce((a, s) => a + s.reward, 0),
    predicted,
    reward,
    steps,
    finished,
  };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const share = <T>(items: readonly T[], hit: (item: T) => boolean): number | null =>
  items.length === 0 ? null : round(items.filter(hit).length / items.length);
const mean = (xs: readonly number[]) =>
  xs.length === 0 ? 0 : round(xs.reduce((a, x) => a + x, 0) / xs.length);

/** The calibration figures of replayed episodes. */
export function summarise(replayed: readonly Replayed[]): OutcomeCalibration {
  return {
    episodes: replayed.length,
    base: share(replayed, (r) => r.logged) ?? 0,
    predicted: share(replayed, (r) => r.predicted) ?? 0,
    precision: share(
      replayed.filter((r) => r.predicted),
      (r) => r.logged,
    ),
    recall: share(
      replayed.filter((r) => r.logged),
      (r) => r.predicted,
    ),
    falseSuccess: share(
      replayed.filter((r) => !r.logged),
      (r) => r.predicted,
    ),
    reward: mean(replayed.map((r) => r.reward)),
    logReward: mean(replayed.map((r) => r.logReward)),
  };
}

export function calibrationOf(replayed: readonly Replayed[]): CalibrationResult {
  const byPolicy: Record<string, OutcomeCalibration> = {};
  for (const policy of new Set(replayed.map((r) => r.policy)))
    byPolicy[policy] = summarise(replayed.filter((r) => r.policy === policy));
  return {
    overall: {
      ...summarise(replayed),
      steps: replayed.reduce((a, r) => a + r.steps, 0),
      unfinished: share(replayed, (r) => !r.finished) ?? 0,
    },
    byPolicy,
  };
}
