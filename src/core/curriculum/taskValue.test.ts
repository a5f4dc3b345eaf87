import { describe, expect, it } from "vitest";
import { isSuccessReward, MAX_TASK_VALUE, taskStats, taskValue } from "./taskValue";

describe("task value", () => {
  it("is the population variance of the group's rewards", () => {
    expect(taskValue([0, 0, 1, 1])).toBe(0.25);
    expect(taskValue([1, 1, 1, 1])).toBe(0);
    expect(taskValue([0, 0, 0, 0])).toBe(0);
    expect(taskValue([0.5])).toBe(0);
    // Partial shop rewards: mean 0.5, deviations ±0.25 and ±0.5.
    expect(taskValue([0.25, 0.75, 0, 1])).toBeCloseTo((0.0625 * 2 + 0.25 * 2) / 4, 12);
  });

  it("equals p(1 - p) for binary rewards, peaking at p = 1/2", () => {
    for (const successes of [0, 1, 2, 3, 5, 7, 8]) {
      const rewards = Array.from({ length: 8 }, (_, i) => (i < successes ? 1 : 0));
      const p = successes / 8;
      expect(taskValue(rewards)).toBeCloseTo(p * (1 - p), 12);
      expect(taskValue(rewards)).toBeLessThanOrEqual(MAX_TASK_VALUE);
    }
  });

  it("comes with the statistics saved per iteration", () => {
    expect(taskStats([1, 0, 0.5, 1])).toEqual({
      count: 4,
      meanReward: 0.625,
      variance: 0.171875,
      successRate: 0.5,
    });
    expect(isSuccessReward(0.9999999999999)).toBe(true);
    expect(isSuccessReward(0.75)).toBe(false);
  });

  it("refuses an empty group and non-finite rewards", () => {
    expect(() => taskValue([])).toThrow(/at least one rollout/);
    expect(() => taskValue([0, Number.NaN])).toThrow(/rewards\[1\] is NaN/);
  });
});
