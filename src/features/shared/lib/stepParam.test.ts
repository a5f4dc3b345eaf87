import { describe, expect, it } from "vitest";
import { stepIndexOf, stepLink, stepParam } from "./stepParam";

describe("a step in the URL", () => {
  it("counts from 1, as the step view shows it, both ways", () => {
    expect(stepParam(0)).toBe("1");
    expect(stepIndexOf("1")).toBe(0);
    expect(stepIndexOf(stepParam(7))).toBe(7);
    expect(stepLink("t 1", 2)).toBe("/trajectories/t%201?step=3");
  });

  it("opens the first step for a missing or unusable value", () => {
    for (const bad of [null, undefined, "", "0", "-2", "1.5", "x"]) expect(stepIndexOf(bad)).toBe(0);
  });
});
