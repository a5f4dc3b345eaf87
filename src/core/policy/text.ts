/**
 * The policy's view of text: lowercase word and number tokens, the words that carry meaning, and the two kinds of
 * "entity" the real domains name things with (ALFWorld's "cabinet 3", WebShop's product codes "b000v3kf").
 * Domain-agnostic on purpose: the same reading serves the shop, the household and any synthetic state.
 */
import { FUNCTION_WORDS, tokens } from "../util/text";

/** Function words, plus instruction boilerplate ("i need", "price lower than ... dollars") that every task shares. */
const STOPWORDS: ReadonlySet<string> = new Set([
  ...FUNCTION_WORDS,
  "some",
  "you",
  "your",
  "them",
  "put",
  "s",
]);

/** Lowercase words and numbers; apostrophes vanish ("men's" -> "mens"), other punctuation separates. */
export const tokenize = tokens;

export function hasDigit(token: string): boolean {
  return /[0-9]/.test(token);
}

/** Tokens that say what something is: no stopwords, no bare numbers or codes, no single letters. */
export function isContentToken(token: string): boolean {
  return token.length > 1 && !STOPWORDS.has(token) && !hasDigit(token);
}

/** Distinct content tokens in order of first appearance. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) if (isContentToken(t) && !out.includes(t)) out.push(t);
  return out;
}

/** "class number" names like "cabinet 3" or "bread 2" (ALFWorld's objects and receptacles), in order. */
export function entities(text: string): string[] {
  const out: string[] = [];
  const re = /\b([a-z]+) (\d+)\b/g;
  const lower = text.toLowerCase();
  for (let m = re.exec(lower); m !== null; m = re.exec(lower)) {
    const name = `${m[1]} ${m[2]}`;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** The class word of an entity: "cabinet 3" -> "cabinet". */
export function entityClass(entity: string): string {
  const space = entity.indexOf(" ");
  return space < 0 ? entity : entity.slice(0, space);
}

/** Dollar amounts in a text, e.g. "$14.79" -> 14.79. */
export function dollarAmounts(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\$\s?(\d+(?:\.\d+)?)/g)) out.push(Number(m[1]));
  return out;
}

/** A budget stated in an instruction ("price lower than 50.00 dollars", "under $20"), if any. */
export function budgetOf(instruction: string): number | undefined {
  const m = /(?:lower than|less than|under|below|cheaper than)\s*\$?\s?(\d+(?:\.\d+)?)/i.exec(instruction);
  return m ? Number(m[1]) : undefined;
}
