/**
 * A Decision: one choice of the policy, with everything needed to recompute its log-probability and gradient
 * under new weights (the candidates' features, already hashed), the chosen index, the log-probability it had
 * under the acting policy, and what PPO adds (the state's features for the value function, its value estimate).
 *
 * Decisions are recorded by the policy as it acts (LinearPolicy.episode(key).decisions) rather than
 * recomputed from an Episode's steps afterwards: recording costs nothing (the features were computed to act),
 * keeps the exact behaviour log-probability (temperature included), and works the same in synthetic
 * environments. replayDecisions.ts recomputes them from steps for episodes the policy did not play (expert
 * demonstrations for behaviour cloning, offline logs).
 */
import type { CandidateRows } from "./features";

export interface Decision {
  /** Packed features of every candidate (see features.ts). */
  rows: CandidateRows;
  /** The candidate actions in row order, for inspection and debugging. */
  actions: readonly string[];
  chosen: number;
  /** log pi_old(chosen) under the acting policy, temperature included. */
  logprob: number;
  /** Packed state features for the value function. */
  state: Int32Array;
  /** V(s) under the value function when the decision was collected (PPO's old value). */
  value?: number;
  /** Index of the decision in its episode. */
  step: number;
}

/** An episode's decisions with its outcome, as the updates consume them. */
export interface DecisionEpisode {
  decisions: Decision[];
  /** Per-step rewards, aligned with decisions (PPO); an outcome reward sits on the last step. */
  rewards: number[];
  /** Sum of the rewards (GRPO's outcome). */
  totalReward: number;
}
