/**
 * Concrete search queries an agent could type, read from the instruction alone (never the hidden goal): the
 * search page only admits the "search[...]" template, and policies that choose among candidates need real ones.
 * The shop's public vocabulary (product types, brands, attributes, option values) is what a shopper could see
 * by browsing, so using it to spot the noun phrase is fair.
 */
import { CATEGORIES } from "./catalog-data";
import { contentTokens, tokens } from "./text";

/** A vocabulary entry and its token form (" a b "), precomputed because every instruction scans them all. */
interface Phrase {
  text: string;
  padded: string;
}

interface Vocabulary {
  /** Longest first, so "body lotion" wins over "lotion"-like shorter matches. */
  types: Phrase[];
  brands: Phrase[];
  attributes: Phrase[];
  optionValues: Phrase[];
}

let vocabulary: Vocabulary | undefined;

function getVocabulary(): Vocabulary {
  if (vocabulary) return vocabulary;
  const types = new Set<string>();
  const brands = new Set<string>();
  const attributes = new Set<string>();
  const optionValues = new Set<string>();
  for (const cat of CATEGORIES) {
    for (const b of cat.brands) brands.add(b.toLowerCase());
    for (const spec of cat.types) {
      types.add(spec.type);
      for (const a of spec.attributes) attributes.add(a);
      for (const values of Object.values(spec.options)) for (const v of values) optionValues.add(v);
    }
  }
  const phrases = (items: Iterable<string>): Phrase[] =>
    [...items]
      .map((text) => ({ text, padded: ` ${tokens(text).join(" ")} ` }))
      .filter((p) => p.padded.trim() !== "");
  vocabulary = {
    types: phrases(types).sort((a, b) => b.text.length - a.text.length),
    brands: phrases(brands),
    attributes: phrases(attributes),
    // Bare numbers ("9") would match inside prices and sizes of anything; leave them out of query building.
    optionValues: phrases([...optionValues].filter((v) => !/^[\d.]+$/.test(v))),
  };
  return vocabulary;
}

/** The instruction without WebShop's price clause, e.g. "i need sulfate free shampoo in size 12 fl oz (pack of 1)". */
export function withoutPriceClause(instruction: string): string {
  return instruction
    .toLowerCase()
    .replace(/,?\s*and\s+price\s+lower\s+than\s+\$?[\d.,]+\s*(dollars)?\.?\s*$/, "")
    .trim();
}

const FILLER =
  /^(i need|i am looking for|i'm looking for|im looking for|find me|i want to buy|i want|i would like|looking for)\s+(an?\s+)?/;

const memo = new Map<string, string[]>();

/** 3-5 distinct queries, from most to least specific. */
export function searchQueries(instruction: string): string[] {
  const hit = memo.get(instruction);
  if (hit) return hit;
  const vocab = getVocabulary();
  const base = withoutPriceClause(instruction);
  const core = base.replace(FILLER, "").trim();
  const hay = ` ${tokens(base).join(" ")} `;
  const found = (p: Phrase) => hay.includes(p.padded);
  // In the order the instruction says them, so queries read like the instruction.
  // A phrase inside a longer one found ("pack of 1" in "8.4 fl oz (pack of 1)") is part of it, not a constraint.
  const inOrder = (ps: Phrase[]) => {
    const hits = ps.filter(found);
    return hits
      .filter((p) => !hits.some((q) => q !== p && q.padded.includes(p.padded)))
      .sort((a, b) => hay.indexOf(a.padded) - hay.indexOf(b.padded))
      .map((p) => p.text);
  };
  const type = vocab.types.find(found)?.text;
  const brand = vocab.brands.find(found)?.text;
  const attrs = inOrder(vocab.attributes);
  const values = inOrder(vocab.optionValues);
  const words = contentTokens(core);
  const candidates = [
    core,
    type ? [brand, type].filter(Boolean).join(" ") : words.slice(-3).join(" "),
    type && attrs.length > 0 ? [...attrs, type].join(" ") : "",
    type && values.length > 0 ? [type, ...values].join(" ") : "",
    words.slice(0, 4).join(" "),
    base,
  ];
  const out: string[] = [];
  for (const q of candidates) {
    const clean = q.replace(/[[\]]/g, " ").replace(/\s+/g, " ").trim();
    if (clean.length > 0 && !out.includes(clean)) out.push(clean);
    if (out.length === 5) break;
  }
  if (memo.size > 10_000) memo.clear();
  memo.set(instruction, out);
  return out;
}
