import type { ImportedDomain } from "../envs/imported/importedDomain";
import { type TrustReport, trustReport } from "../trust/trustReport";
import { trustVerdict } from "../trust/verdict";
import type { RunConfig } from "./config";
import type { EvaluationResult } from "./evaluate";
import { experienceSettings } from "./experienceSettings";
import type { RunDeps } from "./runTypes";

/** The key of a run's first evaluation, the blank policy's: its synthetic success is the untrained figure. */
export const UNTRAINED_EVALUATION = "eval:untrained";

/**
 * The trust figures beside an imported domain's proxies (core/trust): the experience model against the held-out
 * logs (teacher-forced fidelity and outcome calibration), measured once per run since they do not depend on the
 * policy, and at every evaluation a verdict that also weighs that evaluation's synthetic success and the untrained
 * one's against what the logs show.
 */
export function proxyTrust(domain: ImportedDomain, deps: RunDeps, config: RunConfig) {
  let measured: Promise<TrustReport> | undefined;
  let untrained: number | undefined;
  return async (key: string, result: EvaluationResult): Promise<EvaluationResult> => {
    if (!deps.model || !result.proxy) return result;
    const { model, buffer } = deps;
    measured ??= trustReport(domain, model, buffer, experienceSettings(config), {
      concurrency: config.rollouts.concurrency,
    });
    const { fidelity, calibration, byPolicy } = await measured;
    const first = key === UNTRAINED_EVALUATION;
    if (first) untrained = result.successRate;
    const verdict = trustVerdict({
      fidelity,
      calibration,
      byPolicy,
      ...(untrained !== undefined ? { untrainedSyntheticSuccess: untrained } : {}),
      ...(first ? {} : { syntheticSuccess: result.successRate }),
    });
    return { ...result, proxy: { ...result.proxy, trust: { fidelity, calibration, byPolicy, verdict } } };
  };
}
