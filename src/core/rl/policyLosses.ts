/**
 * The policy losses the update loop (update.ts) can minimise, by name, as verl's registry of policy losses and
 * TRL's `loss_type`: each turns one decision's new and old log-probabilities and its advantage into a loss and
 * its derivative with respect to log pi_new. Adding one is adding an entry here and its name to the config's enum.
 */
import { type ClippedTerm, clippedSurrogate } from "./surrogate";

export const POLICY_LOSS_NAMES = ["clip", "clip-higher"] as const;
export type PolicyLossName = (typeof POLICY_LOSS_NAMES)[number];

/** One decision's policy loss. */
export type PolicyLoss = (logprob: number, oldLogprob: number, advantage: number) => ClippedTerm;

export interface ClipSettings {
  /** Clip range of the probability ratio: [1 - clipEpsilon, 1 + clipEpsilon], the low side for clip-higher. */
  clipEpsilon: number;
  /** clip-higher's upper range: the ratio may rise to 1 + clipEpsilonHigh. */
  clipEpsilonHigh: number;
}

export interface PolicyLossSettings extends ClipSettings {
  /** "clip": symmetric (PPO); "clip-higher": clipEpsilon below, clipEpsilonHigh above (DAPO). */
  policyLoss: PolicyLossName;
}

export const POLICY_LOSSES: Record<PolicyLossName, (settings: ClipSettings) => PolicyLoss> = {
  /** PPO's clipped surrogate (Schulman et al. 2017): one epsilon on both sides of the ratio. */
  clip:
    ({ clipEpsilon }) =>
    (logprob, oldLogprob, advantage) =>
      clippedSurrogate(logprob, oldLogprob, advantage, clipEpsilon),
  /**
   * DAPO's clip-higher (Yu et al. 2025; their eps_low 0.2, eps_high 0.28): a wider upper clip lets unlikely
   * choices that paid off gain probability faster, against the entropy collapse of a symmetric clip, while the
   * lower clip still stops likely choices from being pushed down too far in one batch.
   */
  "clip-higher":
    ({ clipEpsilon, clipEpsilonHigh }) =>
    (logprob, oldLogprob, advantage) =>
      clippedSurrogate(logprob, oldLogprob, advantage, clipEpsilon, clipEpsilonHigh),
};

/** The policy loss the settings name. */
export const policyLossOf = (settings: PolicyLossSettings): PolicyLoss =>
  POLICY_LOSSES[settings.policyLoss](settings);
