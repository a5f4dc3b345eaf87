/**
 * The fuzzy score WebShop's reward thresholds at 85: `fuzz.token_set_ratio` of thefuzz (fuzzywuzzy's successor;
 * rapidfuzz computes the same), reproduced to the integer it returns, since `> 85` is decided on that integer.
 *
 * Kept apart from text.ts's tokenSetRatio, which the strict rule uses and which must not change under it: that
 * one tokenizes with the shop's own tokenizer ("men's" -> "mens") and does not round. This one prepares text as
 * thefuzz does ("men's" -> "men s") and rounds, so that a score of 85.4 fails here as it fails in WebShop.
 *
 * The similarity is the indel one (python-Levenshtein's ratio, rapidfuzz's fuzz.ratio): 2·LCS / total length.
 * thefuzz 0.19.0 without python-Levenshtein falls back to difflib's SequenceMatcher, whose matching blocks can
 * find fewer matches than the LCS; on short option and attribute values the two nearly always agree.
 */

import { fuzzRatio } from "./text";

/** thefuzz's force_ascii: it drops exactly the code points 128-255 (its "bad chars"), nothing else. */
const LATIN1_SUPPLEMENT = /[\u0080-\u00ff]/g;
/** Python's `\W` under re.UNICODE: anything but a letter, a number or "_". */
const NON_WORD = /[^\p{L}\p{N}_]/gu;

/** thefuzz's full_process (force_ascii on, as token_set_ratio calls it): words of letters and numbers, lower case. */
export function fullProcess(text: string): string {
  return text.replace(LATIN1_SUPPLEMENT, "").replace(NON_WORD, " ").toLowerCase().trim();
}

/** Python's round(): halves go to the even neighbour (thefuzz's intr is int(round(x))). */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Indel similarity × 100, unrounded (rapidfuzz's fuzz.ratio): the shop's own fuzzRatio, the same measure. */
export { fuzzRatio as indelSimilarity };

/** thefuzz's fuzz.ratio: equal strings 100, an empty one 0, else the similarity rounded. */
export function ratio(a: string, b: string): number {
  if (a === b) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  return roundHalfEven(fuzzRatio(a, b));
}

/**
 * thefuzz's fuzz.token_set_ratio: the shared words (sorted) against each side's shared-plus-own words (sorted),
 * and the two sides against each other; the best of the three. One side's words all among the other's: 100.
 */
export function tokenSetRatio(a: string, b: string): number {
  const pa = fullProcess(a);
  const pb = fullProcess(b);
  if (pa.length === 0 || pb.length === 0) return 0;
  const ta = new Set(pa.split(/\s+/));
  const tb = new Set(pb.split(/\s+/));
  const sect = [...ta].filter((t) => tb.has(t)).sort();
  const onlyA = [...ta].filter((t) => !tb.has(t)).sort();
  const onlyB = [...tb].filter((t) => !ta.has(t)).sort();
  const sorted = sect.join(" ");
  const combinedA = `${sorted} ${onlyA.join(" ")}`.trim();
  const combinedB = `${sorted} ${onlyB.join(" ")}`.trim();
  return Math.max(ratio(sorted, combinedA), ratio(sorted, combinedB), ratio(combinedA, combinedB));
}
