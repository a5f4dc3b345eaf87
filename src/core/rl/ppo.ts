/**
 * PPO (Schulman et al. 2017) as CleanRL's ppo.py, as a configuration of the update loop (update.ts): GAE(gamma,
 * lambda) advantages from a learnt critic, normalised per minibatch, the clipped surrogate, a (optionally
 * clipped) value loss and an entropy bonus, all in one loss
 *
 *   L = L_pg - c_H * H(pi) + c_V * L_V,   L_V = 1/2 max((V - R)^2, (V_old + clip(V - V_old, -eps, eps) - R)^2)
 *
 * minimised by one Adam over the policy and value weights with a global gradient-norm clip. The groups it is
 * given do not matter: the critic, not the group, is the baseline.
 */
import type { LinearPolicy } from "../policy/linearPolicy";
import type { LinearValue } from "../policy/value";
import { ADVANTAGE_ESTIMATORS } from "./estimators";
import { policyLossOf } from "./policyLosses";
import type { CriticStats, UpdateStats } from "./stats";
import { CLIPPED_UPDATE_DEFAULTS, type ClippedUpdateConfig, RlUpdate } from "./update";

export interface PpoConfig extends ClippedUpdateConfig {
  /** Discount. Outcome rewards come at the end; 0.99 makes a shorter success worth slightly more. */
  gamma: number;
  /** GAE's lambda: 1 is Monte Carlo returns, 0 one-step TD. */
  gaeLambda: number;
  /** Normalise advantages to mean 0, std 1 within each minibatch (CleanRL's norm_adv). */
  normalizeAdvantages: boolean;
  /** Clip the value update around the old value, at clipEpsilon (CleanRL's clip_vloss). */
  clipValueLoss: boolean;
  /** Weight of the value loss in the total loss. */
  valueCoef: number;
}

export const PPO_DEFAULTS: PpoConfig = {
  ...CLIPPED_UPDATE_DEFAULTS,
  gamma: 0.99,
  gaeLambda: 0.95,
  normalizeAdvantages: true,
  clipValueLoss: true,
  valueCoef: 0.5,
  // CleanRL's ent_coef.
  entropyCoef: 0.01,
};

export type PpoStats = UpdateStats & CriticStats;

export class Ppo extends RlUpdate {
  readonly config: PpoConfig;

  constructor(policy: LinearPolicy, value: LinearValue, config: Partial<PpoConfig> = {}) {
    const full = { ...PPO_DEFAULTS, ...config };
    super(policy, full, {
      stream: "ppo",
      estimator: ADVANTAGE_ESTIMATORS.gae({ ...full, critic: value }),
      normalizeAdvantages: full.normalizeAdvantages,
      policyLoss: policyLossOf(full),
      // CleanRL's .mean() over the minibatch.
      aggregation: "mean",
      critic: { value, valueCoef: full.valueCoef, clipRange: full.clipValueLoss ? full.clipEpsilon : 0 },
    });
    this.config = full;
  }
}
