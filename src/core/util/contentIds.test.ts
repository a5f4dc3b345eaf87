import { describe, expect, it } from "vitest";
import type { Step } from "../types";
import { contentId, stepId } from "./contentIds";

const page = (text: string) => ({ text, actions: ["click[back]"] });
const step = (state: string, next: string, reasoning = "r"): Step => ({
  state: page(state),
  action: "click[item]",
  reasoning,
  next: page(next),
  reward: 0,
  done: false,
  success: false,
  valid: true,
});

describe("content ids", () => {
  it("gives equal values one id and different values different ids, whichever object holds them", () => {
    expect(contentId(page("a"))).toBe(contentId(page("a")));
    expect(contentId(page("a"))).not.toBe(contentId(page("b")));
    // A value keeps the id it was first given.
    const p = page("c");
    expect(contentId(p)).toBe(contentId(p));
  });

  it("names a history step by its states' ids and the rest of it", () => {
    expect(stepId(step("s", "n"))).toBe(stepId(step("s", "n")));
    expect(stepId(step("s", "n"))).not.toBe(stepId(step("s", "m")));
    expect(stepId(step("s", "n"))).not.toBe(stepId(step("t", "n")));
    expect(stepId(step("s", "n", "r"))).not.toBe(stepId(step("s", "n", "q")));
    // A step's own JSON and its step id name different strings, so they never share an id by accident.
    const s = step("x", "y");
    expect(stepId(s)).not.toBe(contentId({ ...s }));
  });
});
