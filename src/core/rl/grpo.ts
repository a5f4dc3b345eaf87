/**
 * GRPO (Shao et al. 2024, DeepSeekMath), for agents, as a configuration of the update loop (update.ts): a group
 * of episodes per task, each episode's outcome reward turned into a group-relative advantage (estimators.ts) and
 * applied to every decision of the episode. The loss of one decision d of episode i is
 *
 *   L_d = -min(ratio_d * A_i, clip(ratio_d, 1 - eps, 1 + eps) * A_i) + beta * k3(pi_new || pi_ref) - c_H * H(pi_new)
 *
 * averaged as DeepSeekMath does, 1/G sum_i 1/|o_i| sum_t (each episode weighs the same however long it is), or
 * over all decisions (DAPO's token-level mean). No critic: the group is the baseline.
 */
import type { LinearPolicy } from "../policy/linearPolicy";
import { GRPO_ADVANTAGE_EPSILON } from "./advantages";
import { ADVANTAGE_ESTIMATORS, type OutcomeEstimatorName } from "./estimators";
import { policyLossOf } from "./policyLosses";
import { CLIPPED_UPDATE_DEFAULTS, type ClippedUpdateConfig, RlUpdate } from "./update";

export interface GrpoConfig extends ClippedUpdateConfig {
  /** "grpo": group-normalised (DeepSeekMath); "dr-grpo": mean-centred, no std scaling (Liu et al. 2025). */
  advantageEstimator: OutcomeEstimatorName;
  /** Added to the group std in GRPO's advantage. */
  advantageEpsilon: number;
  /** Weight of the k3 KL penalty to the reference policy; DeepSeekMath used 0.04, 0 turns it off. */
  klBeta: number;
  /** "episode": each episode weighs 1 whatever its length (DeepSeekMath); "decision": each decision weighs 1. */
  aggregation: "episode" | "decision";
}

export const GRPO_DEFAULTS: GrpoConfig = {
  ...CLIPPED_UPDATE_DEFAULTS,
  advantageEstimator: "grpo",
  advantageEpsilon: GRPO_ADVANTAGE_EPSILON,
  klBeta: 0,
  aggregation: "episode",
};

export class Grpo extends RlUpdate {
  readonly config: GrpoConfig;

  /** `reference` is the frozen policy of the KL penalty (e.g. a clone of the starting policy); needed when klBeta > 0. */
  constructor(policy: LinearPolicy, config: Partial<GrpoConfig> = {}, reference?: LinearPolicy) {
    const full = { ...GRPO_DEFAULTS, ...config };
    if (full.klBeta > 0 && !reference) throw new Error("GRPO: klBeta > 0 needs a reference policy");
    super(policy, full, {
      stream: "grpo",
      estimator: ADVANTAGE_ESTIMATORS[full.advantageEstimator](full),
      normalizeAdvantages: false,
      policyLoss: policyLossOf(full),
      aggregation: full.aggregation,
      ...(reference && full.klBeta > 0 ? { klPenalty: { reference, beta: full.klBeta } } : {}),
    });
    this.config = full;
  }
}
