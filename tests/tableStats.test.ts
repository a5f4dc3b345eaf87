import { describe, expect, it } from "vitest";
import { meanInterval, t975, welch } from "../bench/table/stats";

describe("the reproduction table's statistics", () => {
  it("uses Student's t for a mean's interval", () => {
    expect(t975(4)).toBeCloseTo(2.776, 3);
    const ci = meanInterval(66, 4, 5)!;
    // 66 ± 2.776 · 4 / √5
    expect(ci.low).toBeCloseTo(61.034, 2);
    expect(ci.high).toBeCloseTo(70.966, 2);
    expect(meanInterval(66, 0, 1)).toBeNull();
  });

  it("calls a difference inside the noise what it is, and a clear one clear", () => {
    const close = welch({ mean: 66, sd: 6, n: 5 }, { mean: 68, sd: 5, n: 5 })!;
    expect(close.diff).toBe(-2);
    expect(close.noise).toBe(true);
    const clear = welch({ mean: 53, sd: 4, n: 5 }, { mean: 86, sd: 1, n: 5 })!;
    expect(clear.noise).toBe(false);
    expect(clear.interval.high).toBeLessThan(0);
  });

  it("matches a worked Welch example (df from Welch–Satterthwaite)", () => {
    // sd 2 and 4, n 5 each: va = 0.8, vb = 3.2, se = 2, df = 16 / (0.16 + 2.56) = 5.88 → t(5) = 2.571
    const d = welch({ mean: 10, sd: 2, n: 5 }, { mean: 4, sd: 4, n: 5 })!;
    expect(d.interval.low).toBeCloseTo(6 - 2.571 * 2, 3);
    expect(d.interval.high).toBeCloseTo(6 + 2.571 * 2, 3);
  });
});
