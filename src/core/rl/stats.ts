/** What an RL update reports, for logs and the runs UI (CleanRL's losses/* and charts/* scalars). */
export interface UpdateStats {
  /** Mean clipped policy loss over minibatch steps. */
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
