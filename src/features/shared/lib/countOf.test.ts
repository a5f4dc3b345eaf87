import { describe, expect, it } from "vitest";
import { countOf, listOf } from "./countOf";

describe("countOf and listOf", () => {
  it("say a count with its noun, and join a list the way a sentence does", () => {
    expect(countOf(1, "step")).toBe("1 step");
    expect(countOf(0, "step")).toBe("0 steps");
    expect(countOf(20000, "trajectory", "trajectories")).toBe("20,000 trajectories");
    expect(listOf([])).toBe("");
    expect(listOf(["a"])).toBe("a");
    expect(listOf(["a", "b"])).toBe("a and b");
    expect(listOf(["a", "b", "c"])).toBe("a, b and c");
  });
});
