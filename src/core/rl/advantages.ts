/**
 * GRPO's group-relative outcome advantage (Shao et al. 2024, DeepSeekMath, eq. 3-4): each episode's reward
 * normalised within the group of episodes of the same task, A_i = (r_i - mean(r)) / (std(r) + eps). No critic:
 * the group is the baseline. std is the population standard deviation; a group where every episode got the same
 * reward teaches nothing and gets all zeros.
 */

/** Added to the group's std so a near-constant group does not blow the advantages up. */
export const GRPO_ADVANTAGE_EPSILON = 1e-6;

export function grpoAdvantages(groupRewards: number[][], epsilon = GRPO_ADVANTAGE_EPSILON): number[][] {
  return groupRewards.map((rewards) => {
    const n = rewards.length;
    if (n === 0) return [];
    const mean = rewards.reduce((s, r) => s + r, 0) / n;
    const variance = rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / n;
    const std = Math.sqrt(variance);
    // Exact zeros for a constant group, even where rounding leaves std at 1e-17.
    if (rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
    return rewards.map((r) => (r - mean) / (std + epsilon));
  });
}
