/** What an RL update reports, for logs and the runs UI (CleanRL's losses/* and charts/* scalars). */
export interface UpdateStats {
  /**
   * Mean policy loss over minibatch steps: the policy loss plus the KL penalty, aggregated (CleanRL's pg_loss;
   * the entropy bonus is reported as entropy).
   */
  policyLoss: number;
  /** Share of decisions whose ratio was clipped. */
  clipFraction: number;
  /** CleanRL's approx_kl, KL(pi_old || pi_new) estimated from the ratios. */
  approxKl: number;
  /** Mean entropy of the candidate distributions. */
  entropy: number;
  /** Mean k3 KL to the reference policy (0 without one). */
  refKl: number;
  /** Mean gradient norm before clipping. */
  gradNorm: number;
  /** Decisions in the batch and decisions with a non-zero advantage. */
  decisions: number;
  informative: number;
}

/** What an update with a critic adds (PPO). */
export interface CriticStats {
  /** Mean value loss over minibatch steps. */
  valueLoss: number;
  /** 1 - Var(R - V) / Var(R) of the old values: how much of the return the critic explained. */
  explainedVariance: number;
}
