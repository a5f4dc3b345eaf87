import type { ImportedDomain } from "../envs/imported/importedDomain";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { Environment, Task } from "../types";
import { type EvaluationResult, evaluatePolicy } from "./evaluate";

/**
 * What can be measured of a policy in a domain that has no real environment (an imported one). None of it is
 * real success, and every screen and table names it a proxy:
 * - synthetic success on the held-out imported tasks (EvaluationResult.successRate, measured in the synthetic
 *   environment);
 * - the experience model's mean confidence over those rollouts (low: the policy went where the logs are thin);
 * - action agreement: in the states of the held-out successful logs, how often the policy's likeliest action is
 *   the logged one.
 */
export interface ProxyMetrics {
  /** Mean confidence of the experience model's predictions over the evaluation rollouts (0–1). */
  confidence?: number;
  /** Share of held-out successful logged steps where the policy's likeliest action is the logged action. */
  actionAgreement?: number;
  /** How many logged steps the agreement was measured on (0: the held-out tasks have no successful log). */
  agreementSteps: number;
}

export async function proxyEvaluation(
  domain: ImportedDomain,
  policy: LinearPolicy,
  tasks: readonly Task[],
  makeEnv: () => Environment,
  options: { greedy?: boolean; key?: string; concurrency?: number } = {},
): Promise<EvaluationResult> {
  const result = await evaluatePolicy(domain, policy, tasks, { ...options, makeEnv });
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
    },
  };
}
