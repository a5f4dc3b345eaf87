import type { ImportedDomain } from "../envs/imported/importedDomain";
import type { OutcomeJudge } from "../experience/openaiOutcomeJudge";
import { LlmReplyError } from "../llm";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { Episode } from "../rollout";
import type { Environment, Task } from "../types";
import { concurrently } from "../util/concurrently";
import { type EvaluationResult, type ProxyMetrics, playEvaluation, summarise } from "./evaluate";

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
