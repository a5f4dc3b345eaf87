/**
 * The advantage estimators the update loop (update.ts) can use, by name, as verl's registry of advantage
 * estimators (algorithm.adv_estimator): each turns a batch's groups of episodes into an advantage for every
 * decision, and, with a critic, the value targets the critic's loss needs. Adding one is adding an entry here.
 */
import type { DecisionEpisode } from "../policy/decision";
import type { LinearValue } from "../policy/value";
import { drGrpoAdvantages, grpoAdvantages } from "./advantages";
import { gae } from "./gae";

/** One episode's estimates, one entry per decision. */
export interface EpisodeAdvantages {
  advantages: readonly number[];
  /** With a critic: its values when the decisions were collected, and the returns it is regressed on. */
  values?: readonly number[];
  returns?: readonly number[];
}

/** Estimates for every episode of every group, in the groups' order. */
export type AdvantageEstimator = (groups: readonly (readonly DecisionEpisode[])[]) => EpisodeAdvantages[][];

/** The estimators that need no critic: the group of episodes of the same task is the baseline. */
export const OUTCOME_ESTIMATORS = ["grpo", "dr-grpo"] as const;
export type OutcomeEstimatorName = (typeof OUTCOME_ESTIMATORS)[number];

export interface GaeSettings {
  /** Discount. */
  gamma: number;
  /** GAE's lambda: 1 is Monte Carlo returns, 0 one-step TD. */
  gaeLambda: number;
  /** Values of decisions collected without one (d.value unset) are predicted by it now. */
  critic: LinearValue;
}

export const ADVANTAGE_ESTIMATORS = {
  /**
   * GRPO (Shao et al. 2024, DeepSeekMath): each episode's outcome reward normalised within its group, mean 0 and
   * std 1, and given to every decision of the episode.
   */
  grpo: ({ advantageEpsilon }: { advantageEpsilon: number }): AdvantageEstimator =>
    outcome((rewards) => grpoAdvantages(rewards, advantageEpsilon)),
  /** Dr. GRPO (Liu et al. 2025): GRPO's advantage without the division by the group's std, mean-centred only. */
  "dr-grpo": (): AdvantageEstimator => outcome(drGrpoAdvantages),
  /** GAE(gamma, lambda) (Schulman et al. 2016) from a learnt critic, per episode, as PPO (CleanRL) uses it. */
  gae:
    ({ gamma, gaeLambda, critic }: GaeSettings): AdvantageEstimator =>
    (groups) =>
      groups.map((group) =>
        group.map((episode) => {
          const values = episode.decisions.map((d) => d.value ?? critic.predict(d.state));
          // Every collected episode ends: the environment said done, or the rollout hit maxSteps (a failure).
          const dones = episode.decisions.map((_, t) => t === episode.decisions.length - 1);
          const { advantages, returns } = gae(episode.rewards, values, dones, gamma, gaeLambda, 0);
          return { advantages, values, returns };
        }),
      ),
};

/** An outcome estimator: group advantages of the episodes' total rewards, the same for all of an episode's decisions. */
function outcome(advantagesOf: (groupRewards: number[][]) => number[][]): AdvantageEstimator {
  return (groups) => {
    const advantages = advantagesOf(groups.map((g) => g.map((e) => e.totalReward)));
    return groups.map((group, g) =>
      group.map((episode, i) => {
        const advantage = advantages[g]?.[i] ?? 0;
        return { advantages: episode.decisions.map(() => advantage) };
      }),
    );
  };
}
