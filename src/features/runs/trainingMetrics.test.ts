import { describe, expect, it } from "vitest";
import { trainingOfExtra } from "./trainingMetrics";

describe("trainingOfExtra", () => {
  it("reads the worker's update statistics", () => {
    const extra = {
      phase: "synthetic",
      update: {
        policyLoss: -0.02,
        clipFraction: 0.125,
        approxKl: 0.003,
        entropy: 1.2,
        refKl: 0,
        gradNorm: 2,
      },
    };
    expect(trainingOfExtra(extra)).toEqual({
      policyLoss: -0.02,
      valueLoss: null,
      approxKl: 0.003,
      refKl: 0,
      entropy: 1.2,
      clipFraction: 0.125,
    });
  });

  it("reads an external trainer's figures by their usual names", () => {
    const out = trainingOfExtra({ trainer: { loss: 0.7, kl: 0.01, clipfrac: 0.2 } });
    expect(out.policyLoss).toBe(0.7);
    expect(out.approxKl).toBe(0.01);
    expect(out.clipFraction).toBe(0.2);
    expect(out.entropy).toBeNull();
  });

  it("gives nulls for missing, malformed or non-finite figures", () => {
    expect(Object.values(trainingOfExtra(null)).every((v) => v === null)).toBe(true);
    expect(trainingOfExtra({ update: { entropy: "high", approxKl: Number.NaN } })).toMatchObject({
      entropy: null,
      approxKl: null,
    });
  });
});
