import { describe, expect, it } from "vitest";
import { diffTrace } from "./traceDiff";

const marked = (segments: { text: string; changed: boolean }[]) =>
  segments.filter((s) => s.changed).map((s) => s.text.trim());

describe("trace diff", () => {
  it("marks the words a correction took out and put in, and keeps both texts whole", () => {
    const original = "The search returns 3 mugs, so the reward is 1.";
    const corrected = "The search returns 5 red mugs, so the reward is 0.";
    const diff = diffTrace(original, corrected);
    expect(diff.identical).toBe(false);
    expect(diff.original.map((s) => s.text).join("")).toBe(original);
    expect(diff.corrected.map((s) => s.text).join("")).toBe(corrected);
    expect(marked(diff.original)).toEqual(["3", "1"]);
    expect(marked(diff.corrected).join(" ")).toMatch(/5\s+red/);
    expect(marked(diff.corrected)).toContain("0");
    expect(diff.removedWords).toBe(2);
    expect(diff.addedWords).toBe(3);
  });

  it("marks nothing when the texts are the same", () => {
    const diff = diffTrace("same words", "same words");
    expect(diff).toMatchObject({ identical: true, removedWords: 0, addedWords: 0 });
    expect(marked(diff.original)).toEqual([]);
  });
});
