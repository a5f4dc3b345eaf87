import type { ImportedDomain } from "../envs/imported/importedDomain";
import type { OutcomeJudge } from "../experience/openaiOutcomeJudge";
import { LlmReplyError } from "../llm";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { Episode } from "../rollout";
import type { Environment, Task } from "../types";
import { concurrently } from "./concurrently";
import { type EvaluationResult, playEvaluation, summarise } from "./evaluate";

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
}

/** The judge's verdicts on the episodes: a reply unusable after its repair is a failure, not a verdict. */
async function judgeEpisodes(
  judge: OutcomeJudge,
  episodes: readonly Episode[],
  concurrency: number,
): Promise<Pick<ProxyMetrics, "judgeSuccess" | "judged" | "judgeFailures">> {
  const verdicts = await concurrently(episodes.length, concurrency, async (i) => {
    try {
      return (await judge.judge(episodes[i]!)).success;
    } catch (error) {
      // An endpoint that cannot answer at all stops the run (LlmRequestError); one bad reply only loses a verdict.
      if (error instanceof LlmReplyError) return undefined;
      throw error;
    }
  });
  const given = verdicts.filter((v): v is boolean => v !== undefined);
  return {
    ...(given.length > 0 ? { judgeSuccess: given.filter(Boolean).length / given.length } : {}),
    judged: given.length,
    judgeFailures: verdicts.length - given.length,
  };
}

export async function proxyEvaluation(
  domain: ImportedDomain,
  policy: LinearPolicy,
  tasks: readonly Task[],
  makeEnv: () => Environment,
  options: { greedy?: boolean; key?: string; concurrency?: number; judge?: OutcomeJudge } = {},
): Promise<EvaluationResult> {
  const { judge, ...play } = options;
  const episodes = await playEvaluation(domain, policy, tasks, { ...play, makeEnv });
  const result = summarise(episodes);
  let agreed = 0;
  let steps = 0;
  for (const log of domain.successfulLogs("test")) {
    log.steps.forEach((step, t) => {
      const { actions, rows } = policy.featurize(log.task, log.steps.slice(0, t), step.state);
      if (actions.length === 0) return;
      const logprobs = policy.logprobs(rows);
      let best = 0;
      for (let i = 1; i < logprobs.length; i++) if (logprobs[i]! > logprobs[best]!) best = i;
      steps++;
      if (actions[best] === step.action) agreed++;
    });
  }
  return {
    ...result,
    proxy: {
      ...(result.meanConfidence !== undefined ? { confidence: result.meanConfidence } : {}),
      ...(steps > 0 ? { actionAgreement: agreed / steps } : {}),
      agreementSteps: steps,
      ...(judge ? await judgeEpisodes(judge, episodes, options.concurrency ?? 1) : {}),
    },
  };
}
