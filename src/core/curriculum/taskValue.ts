/**
 * Task value, the curriculum's signal (ARCHITECTURE.md "One iteration"): the variance of a task's rewards
 * over a group of rollouts by the current policy. It is highest where the policy sometimes succeeds and sometimes
 * fails, which is where a group-relative update (GRPO) has an advantage to learn from; a task always solved or
 * always failed has value 0. For binary outcome rewards the variance is p(1 - p), a monotone function of the
 * reward entropy the paper uses, so the two rank tasks identically.
 */

/** Reward statistics of one task's group in one iteration; the field names follow the TaskStat table. */
export interface TaskStats {
  /** Rollouts in the group. */
  count: number;
  meanReward: number;
  /** Population variance of the group's rewards: the task value of this group. */
  variance: number;
  /** Share of rollouts with a perfect outcome reward (1). */
  successRate: number;
}

/** Outcome rewards are exactly 1 on success; partial shop rewards (0.75) are not successes. */
const SUCCESS_TOLERANCE = 1e-9;

export function isSuccessReward(reward: number): boolean {
  return Math.abs(reward - 1) < SUCCESS_TOLERANCE;
}

function checkGroup(rewards: readonly number[]): void {
  if (rewards.length === 0) throw new RangeError("task value: a group needs at least one rollout's reward");
  const bad = rewards.findIndex((r) => !Number.isFinite(r));
  if (bad >= 0) throw new RangeError(`task value: rewards[${bad}] is ${rewards[bad]}, not a finite number`);
}

/**
 * Population variance (divide by n, not n - 1): the group is all the evidence the policy produced for the task,
 * and with it a binary group's value is exactly p(1 - p), bounded by 1/4 for rewards in [0, 1].
 */
export function taskValue(rewards: readonly number[]): number {
  return taskStats(rewards).variance;
}

export function taskStats(rewards: readonly number[]): TaskStats {
  checkGroup(rewards);
  const count = rewards.length;
  const meanReward = rewards.reduce((sum, r) => sum + r, 0) / count;
  // Two passes rather than E[r²] - E[r]², which can go slightly negative through rounding.
  const variance = rewards.reduce((sum, r) => sum + (r - meanReward) ** 2, 0) / count;
  const successRate = rewards.filter(isSuccessReward).length / count;
  return { count, meanReward, variance, successRate };
}

/** The largest variance rewards in [0, 1] can have (half zeros, half ones). */
export const MAX_TASK_VALUE = 0.25;
