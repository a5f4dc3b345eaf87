/**
 * Word-level text helpers shared by the environments and the policy: one tokenizer everywhere, so that what the
 * search engine sees, what the reward matches and what the policy parses agree on word boundaries.
 */

/** Function words that carry no product meaning; dropped from search terms and from "noun" sets. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "i",
  "im",
  "in",
  "is",
  "it",
  "me",
  "my",
  "of",
  "on",
  "or",
  "so",
  "that",
  "the",
  "this",
  "to",
  "with",
  "need",
  "want",
  "looking",
  "find",
  "buy",
  "am",
  "would",
  "like",
  "please",
  "price",
  "lower",
  "than",
  "dollars",
]);

/** Lowercase words and numbers; apostrophes vanish ("men's" -> "mens"), other punctuation separates. */
export function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/['’]/g, "")
      .match(/[a-z0-9]+/g) ?? []
  );
}
