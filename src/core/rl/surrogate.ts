/**
 * The per-decision pieces of the clipped policy objective shared by GRPO and PPO (Schulman et al. 2017):
 *
 *   ratio = pi_new(a|s) / pi_old(a|s)
 *   L_pg  = -min(ratio * A, clip(ratio, 1 - eps_low, 1 + eps_high) * A)
 *
 * (eps_low = eps_high in PPO; eps_high > eps_low in DAPO's clip-higher, policyLosses.ts), returned with its
 * derivative with respect to log pi_new(a|s) (what the linear model's chain rule needs), and the k3
 * estimator of KL(pi_new || pi_ref) that GRPO penalises (Schulman's "approximating KL", used by
 * DeepSeekMath): k3 = pi_ref/pi_new - log(pi_ref/pi_new) - 1, unbiased and always >= 0.
 */

export interface ClippedTerm {
  loss: number;
  /** dL_pg / dlog pi_new(a|s): zero when the clipped branch is the one min() picks. */
  dLogprob: number;
  ratio: number;
  clipped: boolean;
}

export function clippedSurrogate(
  logprob: number,
  oldLogprob: number,
  advantage: number,
  epsilonLow: number,
  epsilonHigh = epsilonLow,
): ClippedTerm {
  const ratio = Math.exp(logprob - oldLogprob);
  const clippedRatio = Math.min(Math.max(ratio, 1 - epsilonLow), 1 + epsilonHigh);
  const unclippedObjective = ratio * advantage;
  const clippedObjective = clippedRatio * advantage;
  // min() picks the clipped branch only when it is strictly smaller: then the objective is flat in ratio.
  const clipped = clippedObjective < unclippedObjective;
  const loss = -Math.min(unclippedObjective, clippedObjective);
  // d(-ratio * A)/dlog pi = -ratio * A, since dratio/dlog pi = ratio.
  return { loss, dLogprob: clipped ? 0 : -advantage * ratio, ratio, clipped };
}

export interface KlTerm {
  kl: number;
  /** dk3 / dlog pi_new(a|s). */
  dLogprob: number;
}

export function k3Kl(logprob: number, refLogprob: number): KlTerm {
  const x = refLogprob - logprob;
  const ratio = Math.exp(x);
  return { kl: ratio - x - 1, dLogprob: 1 - ratio };
}

/** CleanRL's approx_kl: mean of (ratio - 1) - log ratio, an estimate of KL(pi_old || pi_new). */
export function approxKlTerm(logprob: number, oldLogprob: number): number {
  const logRatio = logprob - oldLogprob;
  return Math.exp(logRatio) - 1 - logRatio;
}
