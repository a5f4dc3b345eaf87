import type { StoredTrustReport } from "@/core/trust/stored";
import type { TrustSummary } from "@/core/trust/summary";
import {
  MAX_FALSE_SUCCESS,
  MAX_HALLUCINATION,
  MAX_REWARD_MAE,
  MAX_TERMINAL_REWARD_MAE,
  MIN_CONFIDENCE_AUROC,
  MIN_SUCCESS_PRECISION,
  MIN_SUCCESS_RECALL,
  MIN_TOKEN_F1,
} from "@/core/trust/verdict";

/** A share as a percentage, "—" for none. */
export const share = (x: number | null | undefined): string =>
  x === null || x === undefined ? "—" : `${(x * 100).toFixed(1)}%`;

/** Where a verdict was measured, in words. */
export function measuredAt(at: TrustSummary["at"]): string {
  if (at === "final") return "the final evaluation";
  if (at === "untrained") return "the untrained policy's evaluation";
  if (at === "import") return "the import (the default run's experience model)";
  return `the evaluation at iteration ${at}`;
}

export interface FigureRow {
  label: string;
  value: string;
  /** The threshold the verdict holds the figure to (core/trust/verdict.ts), in words. */
  threshold: string;
  /** Whether the figure is beyond its threshold; null where there is no figure to judge. */
  fails: boolean | null;
}

const beyond = (x: number | null, fails: (x: number) => boolean) => (x === null ? null : fails(x));

/** The held-out fidelity and overall calibration figures, each beside the threshold the verdict applies. */
export function figureRows({ fidelity: f, calibration: c }: StoredTrustReport): FigureRow[] {
  return [
    {
      label: "Hallucination (predicted elements in neither the logged next state nor the inputs)",
      value: share(f.hallucinationRate),
      threshold: `at most ${share(MAX_HALLUCINATION)}`,
      fails: f.hallucinationRate > MAX_HALLUCINATION,
    },
    {
      label: "Token F1 with the logged next state",
      value: share(f.tokenF1),
      threshold: `at least ${share(MIN_TOKEN_F1)}`,
      fails: f.tokenF1 < MIN_TOKEN_F1,
    },
    {
      label: "Reward error per step (MAE)",
      value: f.rewardMAE.toFixed(3),
      threshold: `at most ${MAX_REWARD_MAE}`,
      fails: f.rewardMAE > MAX_REWARD_MAE,
    },
    {
      label: `Reward error at episode ends (MAE, ${f.terminalTransitions} ends)`,
      value: f.terminalRewardMAE.toFixed(3),
      threshold: `at most ${MAX_TERMINAL_REWARD_MAE}`,
      fails: f.terminalRewardMAE > MAX_TERMINAL_REWARD_MAE,
    },
    {
      label: "End of episode predicted right",
      value: share(f.doneAccuracy),
      threshold: "shown, not judged",
      fails: null,
    },
    {
      label: "Confidence ranks right predictions above wrong ones (AUROC; 0.5 is chance)",
      value: f.confidenceAuroc === null ? "—" : f.confidenceAuroc.toFixed(2),
      threshold: `at least ${MIN_CONFIDENCE_AUROC}`,
      fails: beyond(f.confidenceAuroc, (x) => x < MIN_CONFIDENCE_AUROC),
    },
    {
      label: "Logged failures the model called a success",
      value: share(c.falseSuccess),
      threshold: `at most ${share(MAX_FALSE_SUCCESS)}`,
      fails: beyond(c.falseSuccess, (x) => x > MAX_FALSE_SUCCESS),
    },
    {
      label: "Predicted successes that were logged successes (precision)",
      value: share(c.precision),
      threshold: `at least ${share(MIN_SUCCESS_PRECISION)}`,
      fails: beyond(c.precision, (x) => x < MIN_SUCCESS_PRECISION),
    },
    {
      label: "Logged successes the model ended in success (recall)",
      value: share(c.recall),
      threshold: `at least ${share(MIN_SUCCESS_RECALL)}`,
      fails: beyond(c.recall, (x) => x < MIN_SUCCESS_RECALL),
    },
  ];
}
