import { describe, expect, it } from "vitest";
import { MAX_WORD_TOKENS } from "@/features/shared/lib/textDiff";
import { diffStates } from "./stepDiff";

const join = (segments: { text: string }[]) => segments.map((s) => s.text).join("");
const changed = (segments: { text: string; changed: boolean }[]) =>
  segments
    .filter((s) => s.changed)
    .map((s) => s.text.trim())
    .filter(Boolean);

describe("diffStates", () => {
  it("marks the invented and the missed words on each side, and keeps both texts whole", () => {
    const predicted = "Red Mug [SEP] Price: $12.00 [SEP] Golden Teapot [SEP] Buy Now";
    const real = "Red Mug [SEP] Price: $14.50 [SEP] Buy Now";
    const diff = diffStates(predicted, real);
    expect(diff.identical).toBe(false);
    expect(diff.granularity).toBe("word");
    expect(join(diff.predicted)).toBe(predicted);
    expect(join(diff.real)).toBe(real);
    expect(changed(diff.predicted).join(" ")).toMatch(/12\.00[\s\S]*Golden Teapot/);
    expect(changed(diff.real).join(" ")).toMatch(/14\.50/);
    expect(changed(diff.real).join(" ")).not.toMatch(/Teapot/);
  });

  it("says when the prediction is the real answer", () => {
    const diff = diffStates("You see a mug 1.", "You see a mug 1.");
    expect(diff.identical).toBe(true);
    expect(changed(diff.predicted)).toEqual([]);
  });

  it("keeps a price or a [SEP] whole when it changes", () => {
    const diff = diffStates("Mug [SEP] $12.00 [SEP] Buy", "Mug [SEP] $12.50 [SEP] Buy");
    expect(changed(diff.predicted)).toEqual(["$12.00"]);
    expect(changed(diff.real)).toEqual(["$12.50"]);
  });

  it("compares long, unrelated pages by line, and says so", () => {
    const page = (item: string) =>
      Array.from({ length: MAX_WORD_TOKENS / 10 }, (_, i) => `${item} ${i} [SEP] $${i}.00\n`).join("");
    const diff = diffStates(page("Mug"), page("Teapot"));
    expect(diff.granularity).toBe("line");
    expect(join(diff.predicted)).toBe(page("Mug"));
    expect(join(diff.real)).toBe(page("Teapot"));
    expect(diff.predicted.every((s) => s.changed)).toBe(true);
  });
});
