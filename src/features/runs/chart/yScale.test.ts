import { describe, expect, it } from "vitest";
import { logTicks, onScale, yDomain } from "./yScale";

describe("yDomain", () => {
  it("spans whole decades on a log axis and ignores values it cannot draw", () => {
    expect(yDomain([0.004, 0.2, 0, -1, null], { scale: "log" })).toEqual([0.001, 1]);
    expect(yDomain([5, 5], { scale: "log" })).toEqual([1, 10]);
    expect(yDomain([0, -2], { scale: "log" })).toBeNull();
  });

  it("keeps rates at 0–100 % (signed: −100…100 %)", () => {
    expect(yDomain([0.2, 0.4], { percent: true, scale: "linear" })).toEqual([0, 1]);
    expect(yDomain([-0.2], { percent: true, signed: true, scale: "linear" })).toEqual([-1, 1]);
  });

  it("starts non-negative values at zero and rounds outward", () => {
    const [lo, hi] = yDomain([0.31, 0.87], { scale: "linear" }) ?? [Number.NaN, Number.NaN];
    expect(lo).toBe(0);
    expect(hi).toBeGreaterThanOrEqual(0.87);
    expect(hi).toBeLessThan(1);
  });

  it("covers negative values (a policy loss)", () => {
    const [lo, hi] = yDomain([-0.034, 0.012], { scale: "linear" }) ?? [0, 0];
    expect(lo).toBeLessThanOrEqual(-0.034);
    expect(hi).toBeGreaterThanOrEqual(0.012);
    expect(hi - lo).toBeLessThan(0.1);
  });

  it("gives a flat series some height and says when there is nothing", () => {
    const [lo, hi] = yDomain([0, 0], { scale: "linear" }) ?? [0, 0];
    expect(hi).toBeGreaterThan(lo);
    expect(yDomain([null], { scale: "linear" })).toBeNull();
  });
});

describe("onScale and logTicks", () => {
  it("drops zero and negatives on a log axis only", () => {
    expect(onScale(0, "log")).toBeNull();
    expect(onScale(0, "linear")).toBe(0);
    expect(onScale(Number.NaN, "linear")).toBeNull();
  });
  it("ticks each decade", () => {
    expect(logTicks([0.001, 1])).toEqual([0.001, 0.01, 0.1, 1]);
  });
});
