import { describe, expect, it } from "vitest";
import { smooth, smoothingOf } from "./smoothing";

describe("smooth", () => {
  it("leaves values unchanged at weight 0", () => {
    expect(smooth([1, 5, 2, null, 4], 0)).toEqual([1, 5, 2, null, 4]);
  });

  it("debiases the start: a constant series stays constant at any weight", () => {
    for (const w of [0.3, 0.6, 0.9, 0.99]) {
      for (const v of smooth([0.5, 0.5, 0.5, 0.5], w)) expect(v).toBeCloseTo(0.5, 12);
    }
  });

  it("is TensorBoard's debiased EMA", () => {
    // weight 0.5: the running averages are 0.5 and 1.75, divided by 1 - 0.5 and 1 - 0.25.
    const out = smooth([1, 3], 0.5);
    expect(out[0]).toBeCloseTo(1, 12);
    expect(out[1]).toBeCloseTo(1.75 / 0.75, 12);
  });

  it("flattens a noisy series and keeps gaps as gaps without resetting", () => {
    const noisy = [0, 1, 0, 1, 0, 1, 0, 1];
    const out = smooth(noisy, 0.8) as number[];
    const spread = (xs: number[]) => Math.max(...xs.slice(4)) - Math.min(...xs.slice(4));
    expect(spread(out)).toBeLessThan(0.3);
    const gapped = smooth([2, null, 4], 0.5);
    expect(gapped[1]).toBeNull();
    expect(gapped[2]).toBeCloseTo(2.5 / 0.75, 12);
  });

  it("refuses a weight outside [0, 1)", () => {
    expect(() => smooth([1], 1)).toThrow(/\[0, 1\)/);
    expect(() => smooth([1], -0.1)).toThrow(/got -0.1/);
  });
});

describe("smoothingOf", () => {
  it("reads the URL's value, clamped, and treats junk as none", () => {
    expect(smoothingOf("0.6")).toBe(0.6);
    expect(smoothingOf("2")).toBe(0.99);
    expect(smoothingOf("-1")).toBe(0);
    expect(smoothingOf("abc")).toBe(0);
    expect(smoothingOf(null)).toBe(0);
  });
});
