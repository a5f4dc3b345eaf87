import { describe, expect, it } from "vitest";
import type { DiffSegment } from "./diffSides";
import { differingTokens, diffText, lineTokens, MAX_LINES, MAX_WORD_TOKENS } from "./textDiff";

const words = (text: string) => text.match(/\s+|\S+/g) ?? [];
const join = (segments: DiffSegment[]) => segments.map((s) => s.text).join("");
const kept = (segments: DiffSegment[]) =>
  segments
    .filter((s) => !s.changed)
    .map((s) => s.text)
    .join("");

/** A deterministic pseudo-random text of `count` words from a small vocabulary, some lines long. */
function text(seed: number, count: number, perLine = 12): string {
  const vocabulary = [
    "mug",
    "red",
    "$12.00",
    "[SEP]",
    "Buy",
    "Now",
    "the",
    "a",
    "teapot",
    "1",
    "search",
    "price",
  ];
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(vocabulary[s % vocabulary.length]!, (i + 1) % perLine === 0 ? "\n" : " ");
  }
  return out.join("");
}

/** What every diff must hold, whatever pairing it chose among equally short ones. */
function expectWellFormed(a: string, b: string) {
  const d = diffText(a, b, words);
  // Each side reads back as its text, and what both keep is the same text: the common subsequence.
  expect(join(d.left)).toBe(a);
  expect(join(d.right)).toBe(b);
  expect(kept(d.left)).toBe(kept(d.right));
  // Marked and unmarked runs alternate: no empty segment, no two neighbours of a kind.
  for (const side of [d.left, d.right]) {
    expect(side.every((s) => s.text.length > 0)).toBe(true);
    expect(side.every((s, i) => i === 0 || side[i - 1]!.changed !== s.changed)).toBe(true);
  }
  return d;
}

describe("diffText", () => {
  it("keeps both texts whole and marks only what differs, on many random pairs", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const a = text(seed, 30 + (seed % 7) * 10);
      const b = text(seed * 7919, 20 + (seed % 5) * 10);
      const d = expectWellFormed(a, b);
      expect(d.granularity).toBe("word");
      expect(d.left.some((s) => s.changed) || d.right.some((s) => s.changed)).toBe(true);
    }
  });

  it("marks an inserted and a replaced word and nothing else", () => {
    const d = expectWellFormed(
      "Red Mug [SEP] $12.00 [SEP] Buy Now",
      "Red Mug [SEP] $14.50 [SEP] Golden Buy Now",
    );
    expect(d.left.filter((s) => s.changed).map((s) => s.text.trim())).toEqual(["$12.00"]);
    expect(
      d.right
        .filter((s) => s.changed)
        .map((s) => s.text.trim())
        .filter(Boolean),
    ).toEqual(["$14.50", "Golden"]);
  });

  it("handles an empty side", () => {
    expect(expectWellFormed("", "a b").right).toEqual([{ text: "a b", changed: true }]);
    expect(expectWellFormed("a b", "").left).toEqual([{ text: "a b", changed: true }]);
  });

  it("stays word-level for a small edit in a long text: the bound counts only the differing middle", () => {
    const long = text(3, 5_000);
    const edited = `${long.slice(0, 2_000)} inserted ${long.slice(2_000)}`;
    expect(words(long).length).toBeGreaterThan(MAX_WORD_TOKENS);
    expect(expectWellFormed(long, edited).granularity).toBe("word");
  });

  it("falls back to lines past the word bound, and to the whole texts past the line bound", () => {
    const a = text(5, MAX_WORD_TOKENS);
    const b = text(11, MAX_WORD_TOKENS);
    expect(differingTokens(words(a), words(b))).toBeGreaterThan(MAX_WORD_TOKENS);
    const byLine = expectWellFormed(a, b);
    expect(byLine.granularity).toBe("line");
    // Each marked run is made of whole lines: it starts at a line's start and ends with a line break or the text.
    let at = 0;
    for (const s of byLine.left) {
      if (s.changed) {
        expect(at === 0 || a[at - 1] === "\n").toBe(true);
        expect(s.text.endsWith("\n") || at + s.text.length === a.length).toBe(true);
      }
      at += s.text.length;
    }

    const manyLines = (seed: number) => text(seed, MAX_LINES * 2, 1);
    const whole = expectWellFormed(manyLines(5), manyLines(11));
    expect(whole.granularity).toBe("whole");
    expect(whole.left).toEqual([{ text: manyLines(5), changed: true }]);
  });
});

describe("lineTokens and differingTokens", () => {
  it("keeps the line breaks, so the lines join back into the text", () => {
    for (const t of ["", "a", "a\n", "a\nb", "\n\nb\n", "x\r\ny"]) expect(lineTokens(t).join("")).toBe(t);
    expect(lineTokens("a\nb")).toEqual(["a\n", "b"]);
  });

  it("counts the tokens between the common prefix and suffix, without counting a shared token twice", () => {
    expect(differingTokens(["a", "b", "c"], ["a", "b", "c"])).toBe(0);
    expect(differingTokens(["a", "x", "c"], ["a", "y", "z", "c"])).toBe(3);
    expect(differingTokens(["a", "a"], ["a", "a", "a"])).toBe(1);
    expect(differingTokens([], ["a"])).toBe(1);
  });
});
