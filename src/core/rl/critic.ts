/**
 * The critic's part of PPO's loss (CleanRL's ppo.py): the value V(s) regressed on GAE's returns R,
 *
 *   L_V = 1/2 max((V - R)^2, (V_old + clip(V - V_old, -eps, eps) - R)^2)    (clipped, CleanRL's clip_vloss)
 *   L_V = 1/2 (V - R)^2                                                       (unclipped)
 *
 * weighted by c_V in the total loss, and how much of the returns the critic explains.
 */
import type { LinearValue } from "../policy/value";

export interface Critic {
  value: LinearValue;
  /** Weight of the value loss in the total loss (CleanRL's vf_coef). */
  valueCoef: number;
  /** Clip the value update around the old value to this range (CleanRL's clip_vloss, at clip_coef); 0: no clip. */
  clipRange: number;
}

/** The value loss of one decision and its derivative with respect to the new value V. */
export function valueLoss(
  v: number,
  oldValue: number,
  target: number,
  clipRange: number,
): { loss: number; dV: number } {
  const unclippedError = v - target;
  let dV = unclippedError;
  let loss = 0.5 * unclippedError ** 2;
  if (clipRange > 0) {
    const delta = Math.min(Math.max(v - oldValue, -clipRange), clipRange);
    const clippedError = oldValue + delta - target;
    if (clippedError ** 2 > unclippedError ** 2) {
      loss = 0.5 * clippedError ** 2;
      // The clipped value moves with V only inside the clip range.
      dV = Math.abs(v - oldValue) < clipRange ? clippedError : 0;
    }
  }
  return { loss, dV };
}

/** 1 - Var(R - V) / Var(R) of the old values: how much of the return the critic explained. */
export function explainedVariance(samples: readonly { oldValue: number; target: number }[]): number {
  if (samples.length < 2) return 0;
  const variance = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length;
  };
  const targets = samples.map((s) => s.target);
  const vy = variance(targets);
  return vy === 0 ? 0 : 1 - variance(samples.map((s) => s.target - s.oldValue)) / vy;
}
