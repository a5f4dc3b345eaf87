import { replayIfBroken } from "../envs/remote/faults";
import { type WebshopVerdict, webshopVerdictOf } from "../envs/shop/webshopVerdict";
import type { LinearPolicy } from "../policy/linearPolicy";
import { type Episode, rollout } from "../rollout";
import type { TrustReport } from "../trust/trustReport";
import type { Environment, Task } from "../types";
import { concurrently } from "../util/concurrently";

export interface EvaluationResult {
  episodes: number;
  successRate: number;
  meanReward: number;
  transitions: number;
  /**
   * Success under WebShop's own rule (fuzzy options and attributes, envs/shop/webshopRule.ts) on the same
   * episodes, beside successRate's strict rule. Present only when every episode's environment reported a
   * verdict: the real shop does; household and the synthetic environment do not.
   */
  webshopSuccessRate?: number;
  /** Mean reward under WebShop's own rule; present with webshopSuccessRate. */
  webshopMeanReward?: number;
  /**
   * Times a remote environment broke an evaluation episode, which was then played again from its start (never
   * counted as a failure of the policy); absent when none was.
   */
  environmentBreaks?: number;
  /** The experience model's mean confidence over the steps, when every step reported one (synthetic episodes). */
  meanConfidence?: number;
  /**
   * Present when the domain has no real environment: successRate and meanReward were then measured in the
   * synthetic environment, and these are the other proxies (proxyEvaluation.ts). Never real success.
   */
  proxy?: ProxyMetrics;
}

/** What evaluation needs of a domain, real or imported. */
interface EvaluatedDomain {
  readonly maxSteps: number;
  createEnvironment?: () => Environment;
}

/** WebShop's verdicts of the episodes (from their last step's info), or undefined unless every one has one. */
function webshopVerdicts(episodes: readonly Episode[]): WebshopVerdict[] | undefined {
  const verdicts = episodes.map((e) => webshopVerdictOf(e.infos[e.infos.length - 1]));
  if (verdicts.length === 0 || verdicts.some((v) => v === undefined)) return undefined;
  return verdicts.filter((v): v is WebshopVerdict => v !== undefined);
}

/**
 * Success of the policy on tasks of the real environment (or, with `makeEnv`, of another one: the synthetic
 * environment, for the sim-to-real gap). Sampled (not greedy) by default: with untrained weights greedy play
 * always takes the first candidate, which would flatter every comparison with the untrained policy.
 */
export async function evaluatePolicy(
  domain: EvaluatedDomain,
  policy: LinearPolicy,
  tasks: readonly Task[],
  options: EvaluationOptions = {},
): Promise<EvaluationResult> {
  return summarise(await playEvaluation(domain, policy, tasks, options));
}

export interface EvaluationOptions {
  greedy?: boolean;
  key?: string;
  concurrency?: number;
  makeEnv?: () => Environment;
}

/** The evaluation episodes themselves, one per task in order (for what judges them afterwards). */
export async function playEvaluation(
  domain: EvaluatedDomain,
  policy: LinearPolicy,
  tasks: readonly Task[],
  options: EvaluationOptions = {},
): Promise<Episode[]> {
  const real = domain.createEnvironment?.bind(domain);
  const makeEnv =
    options.makeEnv ??
    real ??
    (() => {
      throw new Error("this domain has no real environment: evaluate it in the synthetic one");
    });
  // The rollout engine's: episodes in flight together, each with its own stream, so the limit changes nothing.
  return concurrently(tasks.length, options.concurrency ?? 1, (i) => {
    const task = tasks[i]!;
    let breaks = 0;
    return replayIfBroken(
      async () => {
        const agent = policy.episode(`${options.key ?? "eval"}:${task.id}`, {
          greedy: options.greedy ?? false,
          record: false,
        });
        const episode = await rollout(makeEnv(), agent, task, domain.maxSteps);
        if (breaks > 0) episode.environmentBreaks = breaks;
        return episode;
      },
      () => {
        breaks++;
      },
    );
  });
}

/** Success, reward, transitions and what the environments reported besides, over the evaluation episodes. */
export function summarise(episodes: readonly Episode[]): EvaluationResult {
  const n = Math.max(1, episodes.length);
  const result: EvaluationResult = {
    episodes: episodes.length,
    successRate: episodes.filter((e) => e.success).length / n,
    meanReward: episodes.reduce((sum, e) => sum + e.totalReward, 0) / n,
    transitions: episodes.reduce((sum, e) => sum + e.steps.length, 0),
  };
  const breaks = environmentBreaks(episodes);
  if (breaks > 0) result.environmentBreaks = breaks;
  const confidences = episodes.flatMap((e) => e.infos.map((info) => info?.confidence));
  if (confidences.length > 0 && confidences.every((c) => typeof c === "number"))
    result.meanConfidence = (confidences as number[]).reduce((a, b) => a + b, 0) / confidences.length;
  const verdicts = webshopVerdicts(episodes);
  if (verdicts) {
    result.webshopSuccessRate = verdicts.filter((v) => v.success).length / n;
    result.webshopMeanReward = verdicts.reduce((sum, v) => sum + v.reward, 0) / n;
  }
  return result;
}

/**
 * What can be measured of a policy in a domain that has no real environment (an imported one). None of it is
 * real success, and every screen and table names it a proxy:
 * - synthetic success on the held-out imported tasks (EvaluationResult.successRate, measured in the synthetic
 *   environment);
 * - the experience model's mean confidence over those rollouts (low: the policy went where the logs are thin);
 * - action agreement: in the states of the held-out successful logs, how often the policy's likeliest action is
 *   the logged one;
 * - optionally, an LLM judge's verdict on each evaluation episode's final state (evaluation.judge).
 */
export interface ProxyMetrics {
  /** Mean confidence of the experience model's predictions over the evaluation rollouts (0–1). */
  confidence?: number;
  /** Share of held-out successful logged steps where the policy's likeliest action is the logged action. */
  actionAgreement?: number;
  /** How many logged steps the agreement was measured on (0: the held-out tasks have no successful log). */
  agreementSteps: number;
  /** The outcome judge's share of the evaluation episodes it judged successful, among those it gave a verdict on. */
  judgeSuccess?: number;
  /** Episodes the judge gave a verdict on. */
  judged?: number;
  /** Episodes it gave no usable verdict on (counted, never guessed). */
  judgeFailures?: number;
  /** How far these proxies can be trusted: the experience model against the held-out logs, and a verdict. */
  trust?: TrustReport;
}

/** Times the environment broke these episodes before each was played through (remote environments). */
export function environmentBreaks(episodes: readonly Episode[]): number {
  return episodes.reduce((sum, e) => sum + (e.environmentBreaks ?? 0), 0);
}
