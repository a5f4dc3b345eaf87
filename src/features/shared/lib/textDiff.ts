import { type DiffSegment, diffSides } from "./diffSides";

export type DiffGranularity = "word" | "line" | "whole";

export interface TextDiff {
  left: DiffSegment[];
  right: DiffSegment[];
  /** "word"; "line" when the texts differ over too many words; "whole" when even their lines are too many. */
  granularity: DiffGranularity;
}

/**
 * Size bounds that keep a diff instant wherever the UI draws one (a trace re-diffed on every key press, a step
 * view). Myers' work grows with the size of the differing part times the number of differences, so two long,
 * unrelated texts are its worst case: about the square of their token count. The bounds count the tokens between
 * the two texts' common prefix and suffix (both sides together), so a small edit in a long text stays word-level.
 * At 2,000 tokens (about 1,000 words and the spaces between them) the worst case took about 10 ms on a busy 2-core
 * machine (jsdiff's 40 ms time-out, which this replaces, was the budget).
 */
export const MAX_WORD_TOKENS = 2_000;
/** Lines are compared the same way; beyond this many differing lines both texts are marked whole. */
export const MAX_LINES = 2_000;

/** Lines with their line break kept, so that they join back into the text. */
export function lineTokens(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+/g) ?? [];
}

/** How many tokens of both sides lie between their common prefix and their common suffix. */
export function differingTokens(xs: readonly string[], ys: readonly string[]): number {
  const shorter = Math.min(xs.length, ys.length);
  let prefix = 0;
  while (prefix < shorter && xs[prefix] === ys[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && xs[xs.length - 1 - suffix] === ys[ys.length - 1 - suffix]) suffix++;
  return xs.length + ys.length - 2 * (prefix + suffix);
}

/**
 * Two texts side by side with their differences marked: by the caller's word tokens when the differing part is
 * within MAX_WORD_TOKENS, else by lines within MAX_LINES, else both texts whole and marked.
 */
export function diffText(left: string, right: string, wordTokens: (text: string) => string[]): TextDiff {
  const words = [wordTokens(left), wordTokens(right)] as const;
  if (differingTokens(...words) <= MAX_WORD_TOKENS) return { ...diffSides(...words), granularity: "word" };
  const lines = [lineTokens(left), lineTokens(right)] as const;
  if (differingTokens(...lines) <= MAX_LINES) return { ...diffSides(...lines), granularity: "line" };
  return {
    left: [{ text: left, changed: true }],
    right: [{ text: right, changed: true }],
    granularity: "whole",
  };
}
