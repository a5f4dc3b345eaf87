import { z } from "zod";
import type { TrustReport } from "./trustReport";

/**
 * The parts of a stored trust report (trustReport.ts, kept in a run's metrics and an import's setting) that the
 * screens show, read back with zod: the JSON was written by this code, but by whichever version wrote it.
 */
const OutcomeCalibration = z.object({
  episodes: z.number(),
  base: z.number(),
  predicted: z.number(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  falseSuccess: z.number().nullable(),
  reward: z.number(),
  logReward: z.number(),
});

export const StoredTrustReport = z.object({
  fidelity: z.object({
    transitions: z.number(),
    tasks: z.number(),
    exactMatch: z.number(),
    tokenF1: z.number(),
    rewardMAE: z.number(),
    terminalTransitions: z.number(),
    terminalRewardMAE: z.number(),
    terminalRewardBias: z.number(),
    doneAccuracy: z.number(),
    hallucinationRate: z.number(),
    confidenceAuroc: z.number().nullable(),
  }),
  calibration: OutcomeCalibration.extend({ steps: z.number(), unfinished: z.number() }),
  byPolicy: z.record(z.string(), OutcomeCalibration),
  verdict: z.object({
    trustworthy: z.boolean(),
    reasons: z.array(z.string()),
    unchecked: z.array(z.string()),
  }),
});
export type StoredTrustReport = z.infer<typeof StoredTrustReport>;

/** A stored report's shown parts, or null when there is none or it cannot be read. */
export function readTrustReport(stored: unknown): StoredTrustReport | null {
  const parsed = StoredTrustReport.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** A report as it is stored: what the reader above accepts (checked by the type, so the two cannot drift). */
export const asStored = (report: TrustReport): StoredTrustReport => report;
