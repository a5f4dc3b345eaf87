import { describe, expect, it } from "vitest";
import { MAX_LINES, MAX_WORD_TOKENS } from "@/features/shared/lib/textDiff";
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

  it("marks a changed number, not the full stop after it", () => {
    const diff = diffTrace("The reward is 1.", "The reward is 0.");
    expect(marked(diff.original)).toEqual(["1"]);
    expect(marked(diff.corrected)).toEqual(["0"]);
  });

  it("past the word bound marks whole lines, and past the line bound both traces whole, still counting words", () => {
    const sentence = (i: number, topic: string) => `Step ${i} looks at the ${topic} and finds it wanting.\n`;
    const lines = (n: number, topic: string) =>
      Array.from({ length: n }, (_, i) => sentence(i, topic)).join("");
    // About 22 tokens a line: enough lines to pass the word bound, fewer than the line bound.
    const n = Math.ceil(MAX_WORD_TOKENS / 20);
    const byLine = diffTrace(lines(n, "mug"), lines(n, "teapot"));
    expect(byLine.original.map((s) => s.text).join("")).toBe(lines(n, "mug"));
    expect(byLine.corrected.map((s) => s.text).join("")).toBe(lines(n, "teapot"));
    expect(byLine.removedWords).toBe(n * 10);
    expect(byLine.addedWords).toBe(n * 10);

    const whole = diffTrace(lines(MAX_LINES + 1, "mug"), lines(MAX_LINES + 1, "teapot"));
    expect(whole.original).toEqual([{ text: lines(MAX_LINES + 1, "mug"), changed: true }]);
    expect(whole.removedWords).toBe((MAX_LINES + 1) * 10);
  });
});
