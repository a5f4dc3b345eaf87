import { describe, expect, it } from "vitest";
import { formatReward } from "./formatReward";

describe("formatReward", () => {
  it("never shows a reward that is not 1 (or 0) as 1.00 (or 0.00)", () => {
    expect(formatReward(0.998)).toBe("0.998");
    expect(formatReward(0.9996)).toBe("0.9996");
    expect(formatReward(0.9999999)).toBe("0.999999");
    expect(formatReward(1.0000001)).toBe("1.000001");
    expect(formatReward(0.002)).toBe("0.002");
    expect(formatReward(-0.004)).toBe("-0.004");
    expect(formatReward(0.998, { decimals: 3, trim: true })).toBe("0.998");
    expect(formatReward(0.9996, { decimals: 3, trim: true })).toBe("0.9996");
  });

  it("keeps the usual precision where rounding does not mislead", () => {
    expect(formatReward(1)).toBe("1.00");
    expect(formatReward(0)).toBe("0.00");
    expect(formatReward(0.5)).toBe("0.50");
    expect(formatReward(0.756)).toBe("0.76");
    expect(formatReward(1.5)).toBe("1.50");
    expect(formatReward(1, { decimals: 3, trim: true })).toBe("1");
    expect(formatReward(0, { decimals: 3, trim: true })).toBe("0");
    expect(formatReward(0.25, { decimals: 3, trim: true })).toBe("0.25");
    expect(formatReward(0.1234, { decimals: 3, trim: true })).toBe("0.123");
  });

  it("reads a sum that is whole up to float noise as whole", () => {
    expect(formatReward(0.1 + 0.2 + 0.7)).toBe("1.00");
    expect(formatReward(0.1 + 0.2 + 0.7, { decimals: 3, trim: true })).toBe("1");
  });
});
