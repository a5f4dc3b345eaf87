import { describe, expect, it } from "vitest";
import { columnLabel, extraColumns, flattenExtra, formatExtra } from "./extra";

describe("metric extras", () => {
  it("flattens nested numbers and strings, skipping duplicates and non-finite values", () => {
    const row = flattenExtra({
      phase: "synthetic",
      rolloutSuccess: 0.5,
      update: { policyLoss: -0.01, approxKl: 0.002, clipFraction: 0.1, bad: Number.NaN, list: [1] },
      seconds: 3.5,
      evaluationReward: null,
    });
    expect(row).toEqual({
      phase: "synthetic",
      "update.policyLoss": -0.01,
      "update.approxKl": 0.002,
      "update.clipFraction": 0.1,
      seconds: 3.5,
    });
    expect(flattenExtra(null)).toEqual({});
    expect(extraColumns([{ a: 1 }, { b: 2, a: 3 }])).toEqual(["a", "b"]);
  });

  it("labels and formats columns for people", () => {
    expect(columnLabel("update.approxKl")).toBe("approx KL");
    expect(columnLabel("update.clipFraction")).toBe("clip fraction");
    expect(formatExtra(12000)).toBe("12,000");
    expect(formatExtra(0.123456)).toBe("0.1235");
    expect(formatExtra(0.00001)).toBe("1.00e-5");
    expect(formatExtra(undefined)).toBe("");
  });
});
