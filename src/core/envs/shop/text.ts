/**
 * Text helpers shared by the catalog, the search engine and the reward: one tokenizer everywhere, so that what
 * the search engine sees, what the reward matches and what the policies parse agree on word boundaries.
 */
import { FUNCTION_WORDS, tokens } from "../../util/text";

/** Function words that carry no product meaning; dropped from search terms and from "noun" sets. */
export const STOPWORDS = FUNCTION_WORDS;
export { tokens };

/** Tokens that say something about a product: no stopwords, no single letters. */
export function contentTokens(text: string): string[] {
  return tokens(text).filter((t) => t.length > 1 && !STOPWORDS.has(t));
}

/** Spelling variants that should not make two option values differ. */
const SYNONYMS: Readonly<Record<string, string>> = {
  grey: "gray",
  ounce: "oz",
  ounces: "oz",
  colour: "color",
  pk: "pack",
};

/** Canonical form of an option value: tokens joined by single spaces, synonyms folded. */
export function normalizeOption(value: string): string {
  return tokens(value)
    .map((t) => SYNONYMS[t] ?? t)
    .join(" ");
}

/** Length of the longest common subsequence of two strings. */
function lcsLength(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      cur[j] =
        ca === b.charCodeAt(j - 1)
          ? (prev[j - 1] as number) + 1
          : Math.max(prev[j] as number, cur[j - 1] as number);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/** rapidfuzz's fuzz.ratio: 100 × normalized indel similarity (2·LCS / total length). */
export function fuzzRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 100;
  return (200 * lcsLength(a, b)) / total;
}

/**
 * fuzz.token_set_ratio as WebShop calls it (thefuzz / rapidfuzz semantics): compare the sorted shared tokens with
 * each side's sorted leftovers; a token set contained in the other scores 100.
 */
export function tokenSetRatio(a: string, b: string): number {
  const ta = new Set(tokens(a));
  const tb = new Set(tokens(b));
  if (ta.size === 0 || tb.size === 0) return 0;
  const shared = [...ta].filter((t) => tb.has(t)).sort();
  const onlyA = [...ta].filter((t) => !tb.has(t)).sort();
  const onlyB = [...tb].filter((t) => !ta.has(t)).sort();
  if (shared.length > 0 && (onlyA.length === 0 || onlyB.length === 0)) return 100;
  const sect = shared.join(" ");
  const withA = [sect, onlyA.join(" ")].filter((s) => s.length > 0).join(" ");
  const withB = [sect, onlyB.join(" ")].filter((s) => s.length > 0).join(" ");
  let best = fuzzRatio(withA, withB);
  if (sect.length > 0) best = Math.max(best, fuzzRatio(sect, withA), fuzzRatio(sect, withB));
  return best;
}

/** "men's t-shirt" -> "Men's T-Shirt": how titles are cased, like the marketplace listings WebShop scraped. */
export function titleCase(text: string): string {
  return text.replace(/(^|[\s\-&/(])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Whitespace-collapsed lowercase: the key under which click targets and queries are compared. */
export function squash(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}
