import { z } from "zod";
import type { TrustReport } from "./trustReport";

/**
 * A trust report cut to what a list or a badge needs: the verdict with its reasons, the figures that most often
 * decide it, and where it was measured. Stored as a run's `trust` (the latest evaluation's) and as an imported
 * domain's import-time figures, so that lists read one small JSON instead of every metric row.
 */
export const TrustSummary = z.object({
  trustworthy: z.boolean(),
  reasons: z.array(z.string()),
  /** How many rules could not be checked (too few logs, no untrained figure). */
  unchecked: z.number().int().min(0),
  /** Where the verdict comes from: an evaluation's iteration, "final", "untrained", or "import". */
  at: z.union([z.number().int(), z.enum(["final", "untrained", "import"])]),
  hallucinationRate: z.number(),
  tokenF1: z.number(),
  rewardMAE: z.number(),
  falseSuccess: z.number().nullable(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  /** The held-out logs' success rate (the base rate) and the share the model ended in success. */
  base: z.number(),
  predicted: z.number(),
});
export type TrustSummary = z.infer<typeof TrustSummary>;

export function trustSummary(report: TrustReport, at: TrustSummary["at"]): TrustSummary {
  const { fidelity: f, calibration: c, verdict: v } = report;
  return {
    trustworthy: v.trustworthy,
    reasons: v.reasons,
    unchecked: v.unchecked.length,
    at,
    hallucinationRate: f.hallucinationRate,
    tokenF1: f.tokenF1,
    rewardMAE: f.rewardMAE,
    falseSuccess: c.falseSuccess,
    precision: c.precision,
    recall: c.recall,
    base: c.base,
    predicted: c.predicted,
  };
}

/** A stored summary, or null when there is none or it is not one (an older shape is shown as no verdict). */
export function readTrustSummary(stored: unknown): TrustSummary | null {
  const parsed = TrustSummary.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
