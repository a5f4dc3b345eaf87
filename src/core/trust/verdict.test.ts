import { describe, expect, it } from "vitest";
import type { Calibration, OutcomeCalibration } from "./calibration";
import type { HeldOutFidelity } from "./heldOutFidelity";
import {
  MAX_FALSE_SUCCESS,
  MAX_HALLUCINATION,
  MAX_REWARD_MAE,
  MAX_SYNTHETIC_EXCESS,
  MAX_SYNTHETIC_OVER_REPLAY,
  MAX_TERMINAL_REWARD_MAE,
  MAX_UNTRAINED_EXCESS,
  MIN_CONFIDENCE_AUROC,
  MIN_OUTCOMES,
  MIN_SUCCESS_PRECISION,
  MIN_SUCCESS_RECALL,
  MIN_TOKEN_F1,
  type TrustVerdictInput,
  trustVerdict,
  untrainedReference,
} from "./verdict";

const fidelity: HeldOutFidelity = {
  transitions: 300,
  tasks: 20,
  exactMatch: 0.6,
  tokenF1: 0.8,
  rewardAccuracy: 0.95,
  rewardMAE: 0.05,
  terminalTransitions: 50,
  terminalRewardMAE: 0.1,
  terminalRewardBias: -0.05,
  doneAccuracy: 0.95,
  invalidActionAgreement: 0.9,
  hallucinationRate: 0.05,
  confidenceAuroc: 0.7,
  confidenceRight: 0.9,
  confidenceWrong: 0.6,
  successPrecision: 0.9,
  successRecall: 0.9,
};

const calibration: Calibration = {
  episodes: 100,
  base: 0.5,
  predicted: 0.5,
  precision: 0.9,
  recall: 0.9,
  falseSuccess: 0.1,
  reward: 0.5,
  logReward: 0.5,
  steps: 400,
  unfinished: 0,
};

const row = (episodes: number, base: number): OutcomeCalibration => ({
  ...calibration,
  episodes,
  base,
  predicted: base,
});

/** Expert play, the weakest noisy play, and a random label with too few logs to serve as a reference. */
const byPolicy = {
  expert: row(50, 0.9),
  "noisy-0.3": row(30, 0.6),
  "noisy-0.7": row(20, 0.1),
  random: row(4, 0),
};

const passing = (): TrustVerdictInput => ({
  fidelity: { ...fidelity },
  calibration: { ...calibration },
  byPolicy,
  untrainedSyntheticSuccess: 0.1,
  syntheticSuccess: 0.8,
});

/** The verdict with one figure changed: whether it fails, and its reasons. */
function judged(change: (input: TrustVerdictInput) => void) {
  const input = passing();
  change(input);
  return trustVerdict(input);
}

describe("trustVerdict", () => {
  it("trusts a model whose every figure is within its threshold, with nothing left unchecked", () => {
    expect(trustVerdict(passing())).toEqual({ trustworthy: true, reasons: [], unchecked: [] });
  });

  const edges: [string, (x: TrustVerdictInput, beyond: number) => void, RegExp][] = [
    [
      "false successes",
      (x, e) => (x.calibration.falseSuccess = MAX_FALSE_SUCCESS + e),
      /called 20% of the held-out episodes that failed a success/,
    ],
    [
      "success precision",
      (x, e) => (x.calibration.precision = MIN_SUCCESS_PRECISION - e),
      /Only 70% of the successes/,
    ],
    [
      "success recall",
      (x, e) => (x.calibration.recall = MIN_SUCCESS_RECALL - e),
      /ended only 50% of the logged successes in success/,
    ],
    [
      "hallucination",
      (x, e) => (x.fidelity.hallucinationRate = MAX_HALLUCINATION + e),
      /15% of what the experience model showed/,
    ],
    ["token F1", (x, e) => (x.fidelity.tokenF1 = MIN_TOKEN_F1 - e), /share only 50% of their words/],
    [
      "reward error",
      (x, e) => (x.fidelity.rewardMAE = MAX_REWARD_MAE + e),
      /reward is off by 0\.1501 per held-out step/,
    ],
    [
      "terminal reward error",
      (x, e) => (x.fidelity.terminalRewardMAE = MAX_TERMINAL_REWARD_MAE + e),
      /end of held-out episodes .* off by 0\.2501 .* paying too little/,
    ],
    [
      "synthetic success over the replayed best play",
      (x, e) => {
        x.byPolicy = {
          ...byPolicy,
          expert: { ...row(50, 0.9), predicted: 0.8 - MAX_SYNTHETIC_OVER_REPLAY - e },
        };
      },
      /trained policy succeeds 80% .* yet the model ended only 65% of the best logged behaviour's episodes in success when it replayed them \(expert, 90% successful/,
    ],
    [
      "confidence ranking",
      (x, e) => (x.fidelity.confidenceAuroc = MIN_CONFIDENCE_AUROC - e),
      /as sure where it is wrong as where it is right \(confidence AUROC 0\.65.*60% on its wrong predictions against 90% on its right ones/,
    ],
    // The reference is the weakest noisy play with enough logs (noisy-0.7, 10%), not the 4 random logs.
    [
      "untrained excess",
      (x, e) => (x.untrainedSyntheticSuccess = 0.1 + MAX_UNTRAINED_EXCESS + e),
      /untrained policy succeeds 20% .* 10 points above the 10% the logs show for noisy-0.7/,
    ],
    [
      "synthetic excess",
      (x, e) => {
        x.byPolicy = { ...byPolicy, expert: { ...row(50, 0.65), predicted: 0.9 } };
        x.syntheticSuccess = 0.65 + MAX_SYNTHETIC_EXCESS + e;
      },
      /synthetic success \(80%\) is 15 points above the best logged behaviour \(expert, 65%/,
    ],
  ];
  for (const [name, set, reason] of edges) {
    it(`passes ${name} at its threshold and fails it just beyond, saying why with the figures`, () => {
      expect(judged((x) => set(x, 0)).trustworthy).toBe(true);
      const beyond = judged((x) => set(x, 0.0001));
      expect(beyond.trustworthy).toBe(false);
      expect(beyond.reasons).toHaveLength(1);
      expect(beyond.reasons[0]).toMatch(reason);
    });
  }

  it(`leaves a success rate over fewer than ${MIN_OUTCOMES} episodes unchecked, not passed or failed`, () => {
    // 4 logged failures of 100: a false-success rate of 50% is two episodes.
    const few = judged((x) => {
      x.calibration.base = 0.96;
      x.calibration.falseSuccess = 0.5;
    });
    expect(few.trustworthy).toBe(true);
    expect(few.unchecked).toEqual([expect.stringMatching(/Too few logged failures \(4\)/)]);
    const enough = judged((x) => {
      x.calibration.base = 0.95;
      x.calibration.falseSuccess = 0.5;
    });
    expect(enough.trustworthy).toBe(false);
  });

  it("leaves confidence unchecked when no held-out prediction was wrong (or none right)", () => {
    const verdict = judged((x) => (x.fidelity.confidenceAuroc = null));
    expect(verdict.trustworthy).toBe(true);
    expect(verdict.unchecked).toEqual([expect.stringMatching(/all right or all wrong/)]);
  });

  it("lists the comparisons it was not given as unchecked", () => {
    const { untrainedSyntheticSuccess: _u, syntheticSuccess: _s, ...input } = passing();
    const verdict = trustVerdict(input);
    expect(verdict.trustworthy).toBe(true);
    expect(verdict.unchecked).toEqual([
      "No untrained policy's synthetic success was given to compare.",
      "No trained policy's synthetic success was given to compare.",
    ]);
  });

  it("compares an untrained policy with the weakest random or noisy play that has enough logs, else all the logs", () => {
    expect(untrainedReference(calibration, { ...byPolicy, random: row(10, 0.05) })).toEqual({
      label: "random",
      base: 0.05,
    });
    expect(untrainedReference(calibration, byPolicy)).toEqual({ label: "noisy-0.7", base: 0.1 });
    expect(untrainedReference(calibration, { expert: row(50, 0.9) })).toEqual({
      label: "all held-out logs",
      base: 0.5,
    });
  });
});
