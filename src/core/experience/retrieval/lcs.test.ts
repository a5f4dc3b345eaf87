import { diff } from "fast-myers-diff";
import { describe, expect, it } from "vitest";
import { LcsPattern } from "./lcs";

/** What a minimal diff leaves in common: the pattern's length minus what it deletes. */
function commonByDiff(a: Int32Array, b: Int32Array): number {
  let removed = 0;
  for (const [sx, ex] of diff(a, b)) removed += ex - sx;
  return a.length - removed;
}

describe("LcsPattern", () => {
  it("gives the LCS length a minimal diff gives, across word boundaries and alphabets", () => {
    let seed = 11;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let trial = 0; trial < 400; trial++) {
      // Lengths around 32-bit word boundaries; small alphabets repeat ids, large ones rarely match.
      const alphabet = [2, 5, 40, 1000][trial % 4]!;
      const a = Int32Array.from({ length: next() % 140 }, () => next() % alphabet);
      const b = Int32Array.from({ length: next() % 140 }, () => next() % alphabet);
      expect(new LcsPattern(a).lcs(b), `trial ${trial}`).toBe(commonByDiff(a, b));
    }
  });

  it("counts a known case and reuses the pattern against several texts", () => {
    const pattern = new LcsPattern(Int32Array.from([1, 2, 3, 2, 4, 1, 2]));
    expect(pattern.lcs(Int32Array.from([2, 4, 3, 1, 2, 1]))).toBe(4);
    expect(pattern.lcs(Int32Array.from([]))).toBe(0);
    expect(pattern.lcs(Int32Array.from([1, 2, 3, 2, 4, 1, 2]))).toBe(7);
  });
});
