import { describe, expect, it } from "vitest";
import { drGrpoAdvantages, grpoAdvantages, minibatchNormalisation } from "./advantages";
import { gae } from "./gae";

function expectClose(actual: number[], expected: number[], digits: number): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((x, i) => {
    expect(actual[i]).toBeCloseTo(x, digits);
  });
}

describe("grpoAdvantages", () => {
  it("normalises each group by its own mean and population std", () => {
    // Group 1: mean 0.5, std 0.5 -> (r - 0.5) / 0.5 = +-1.
    // Group 2: mean 0.5, deviations -0.3, -0.1, 0.4, variance (0.09 + 0.01 + 0.16) / 3 = 0.086667, std 0.294392.
    const [a, b] = grpoAdvantages([
      [1, 0, 0, 1],
      [0.2, 0.4, 0.9],
    ]) as [number[], number[]];
    expect(a[0]).toBeCloseTo(1, 5);
    expect(a[1]).toBeCloseTo(-1, 5);
    expect(a[2]).toBeCloseTo(-1, 5);
    expect(a[3]).toBeCloseTo(1, 5);
    expect(b[0]).toBeCloseTo(-1.019049, 5);
    expect(b[1]).toBeCloseTo(-0.339683, 5);
    expect(b[2]).toBeCloseTo(1.358732, 5);
  });

  it("gives exact zeros to groups where every episode got the same reward", () => {
    expect(grpoAdvantages([[0.5, 0.5, 0.5], [1], [0, 0], []])).toEqual([[0, 0, 0], [0], [0, 0], []]);
  });

  it("adds epsilon to the std", () => {
    // std 0.5, eps 0.5: (1 - 0.5) / (0.5 + 0.5) = 0.5.
    expect(grpoAdvantages([[1, 0]], 0.5)).toEqual([[0.5, -0.5]]);
  });
});

describe("drGrpoAdvantages", () => {
  it("centres each group on its mean without dividing by its std", () => {
    // Group 1: mean 0.5 -> +-0.5 (GRPO: +-1). Group 2: mean 0.5 -> -0.3, -0.1, 0.4 (GRPO: -1.02, -0.34, 1.36).
    // Group 3: rewards 0.1 apart, mean 0.05 -> +-0.05, where GRPO's division by std 0.05 makes them +-1.
    const [a, b, c] = drGrpoAdvantages([
      [1, 0, 0, 1],
      [0.2, 0.4, 0.9],
      [0.1, 0],
    ]) as [number[], number[], number[]];
    expect(a).toEqual([0.5, -0.5, -0.5, 0.5]);
    expectClose(b, [-0.3, -0.1, 0.4], 12);
    expectClose(c, [0.05, -0.05], 12);
    expectClose(grpoAdvantages([[0.1, 0]])[0]!, [1, -1], 4);
  });

  it("gives exact zeros to groups where every episode got the same reward", () => {
    expect(drGrpoAdvantages([[0.1, 0.1, 0.1], [1], []])).toEqual([[0, 0, 0], [0], []]);
  });
});

describe("minibatchNormalisation", () => {
  it("is the minibatch's mean and sample std (+1e-8), and nothing for a single advantage", () => {
    // Mean 2, sample variance (1 + 0 + 1) / 2 = 1.
    expect(minibatchNormalisation([1, 2, 3])).toEqual({ mean: 2, std: 1 + 1e-8 });
    expect(minibatchNormalisation([5])).toBeUndefined();
  });
});

describe("gae", () => {
  it("matches the hand-computed recursion for one terminated episode", () => {
    // gamma 0.9, lambda 0.8; the episode ends with step 2, so lastValue (0.3) is ignored.
    // t=2: delta = 1 - 0.7 = 0.3;                 A2 = 0.3
    // t=1: delta = 0 + 0.9*0.7 - 0.6 = 0.03;      A1 = 0.03 + 0.72*0.3 = 0.246
    // t=0: delta = 0 + 0.9*0.6 - 0.5 = 0.04;      A0 = 0.04 + 0.72*0.246 = 0.21712
    const { advantages, returns } = gae([0, 0, 1], [0.5, 0.6, 0.7], [false, false, true], 0.9, 0.8, 0.3);
    expectClose(advantages, [0.21712, 0.246, 0.3], 10);
    expectClose(returns, [0.71712, 0.846, 1.0], 10);
  });

  it("bootstraps from lastValue when the last step did not end the episode", () => {
    // gamma 0.5, lambda 1, V(s_2) = 2.
    // t=1: delta = 0 + 0.5*2 - 0.5 = 0.5;         A1 = 0.5
    // t=0: delta = 1 + 0.5*0.5 - 0 = 1.25;        A0 = 1.25 + 0.5*1*0.5 = 1.5
    const { advantages, returns } = gae([1, 0], [0, 0.5], [false, false], 0.5, 1, 2);
    expect(advantages).toEqual([1.5, 0.5]);
    expect(returns).toEqual([1.5, 1]);
  });

  it("does not carry advantages across an episode boundary", () => {
    // gamma 1, lambda 1; step 0 ends one episode, steps 1-2 are the next.
    // t=2: delta = 1 - 0.4 = 0.6;                 A2 = 0.6
    // t=1: delta = 0 + 0.4 - 0.1 = 0.3;           A1 = 0.3 + 0.6 = 0.9
    // t=0: delta = 1 - 0.2 = 0.8 (done);          A0 = 0.8
    const { advantages, returns } = gae([1, 0, 1], [0.2, 0.1, 0.4], [true, false, true], 1, 1, 5);
    expectClose(advantages, [0.8, 0.9, 0.6], 12);
    expectClose(returns, [1, 1, 1], 12);
  });

  it("rejects misaligned inputs", () => {
    expect(() => gae([1], [0, 0], [true], 1, 1, 0)).toThrow(/one entry per step/);
  });
});
