import type { EvaluationResult } from "@/core/train/evaluate";
import { type TrustSummary, trustSummary } from "@/core/trust/summary";

/**
 * The run columns an evaluation's trust verdict writes: the latest verdict's summary as `Run.trust`, so that the
 * runs list reads it without the metric rows; nothing for an evaluation without one (a domain with a real
 * environment, where real success is the check).
 */
export function runTrustData(
  evaluation: EvaluationResult | undefined,
  at: TrustSummary["at"],
): { trust: TrustSummary } | Record<string, never> {
  const report = evaluation?.proxy?.trust;
  return report ? { trust: trustSummary(report, at) } : {};
}
