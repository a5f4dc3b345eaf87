/**
 * The arithmetic of the advantage estimators (estimators.ts), on plain numbers.
 *
 * GRPO's group-relative outcome advantage (Shao et al. 2024, DeepSeekMath, eq. 3-4): each episode's reward
 * normalised within the group of episodes of the same task, A_i = (r_i - mean(r)) / (std(r) + eps). No critic:
 * the group is the baseline. std is the population standard deviation. Dr. GRPO (Liu et al. 2025, "Understanding
 * R1-Zero-Like Training") drops the division by std, A_i = r_i - mean(r): dividing by a small std gives groups
 * whose rewards barely differ (too easy or too hard tasks) the largest advantages, a difficulty bias. In both, a
 * group where every episode got the same reward teaches nothing and gets all zeros.
 */

/** Added to the group's std so a near-constant group does not blow the advantages up. */
export const GRPO_ADVANTAGE_EPSILON = 1e-6;

export function grpoAdvantages(groupRewards: number[][], epsilon = GRPO_ADVANTAGE_EPSILON): number[][] {
  return groupCentred(groupRewards, (rewards, mean) => {
    const variance = rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / rewards.length;
    return Math.sqrt(variance) + epsilon;
  });
}

export function drGrpoAdvantages(groupRewards: number[][]): number[][] {
  return groupCentred(groupRewards, () => 1);
}

/** Each group's rewards minus their mean, over the group's scale. */
function groupCentred(
  groupRewards: number[][],
  scale: (rewards: readonly number[], mean: number) => number,
): number[][] {
  return groupRewards.map((rewards) => {
    const n = rewards.length;
    if (n === 0) return [];
    // Exact zeros for a constant group, even where rounding leaves the mean a hair off the rewards.
    if (rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
    const mean = rewards.reduce((s, r) => s + r, 0) / n;
    const by = scale(rewards, mean);
    return rewards.map((r) => (r - mean) / by);
  });
}

/** Advantage normalisation's floor on the std, as CleanRL's 1e-8. */
const NORMALIZE_EPSILON = 1e-8;

/**
 * CleanRL's norm_adv: the mean and (sample) std that bring one minibatch's advantages to mean 0, std 1.
 * Undefined for a single advantage, which has no std and is used as it is.
 */
export function minibatchNormalisation(
  advantages: readonly number[],
): { mean: number; std: number } | undefined {
  const n = advantages.length;
  if (n < 2) return undefined;
  const mean = advantages.reduce((s, a) => s + a, 0) / n;
  const variance = advantages.reduce((s, a) => s + (a - mean) ** 2, 0) / (n - 1);
  return { mean, std: Math.sqrt(variance) + NORMALIZE_EPSILON };
}
