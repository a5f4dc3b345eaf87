/**
 * The search engine behind the search bar. WebShop ranks its catalog with BM25 (Pyserini) over each product's
 * text and returns the top 50; we rank with MiniSearch's BM25+ over title and body (category, type, attributes,
 * description, bullet points) and return the top 50.
 *
 * Speed: a MiniSearch OR query scores each query term independently, sums, and multiplies by the number of query
 * terms matched ("quality"). We reproduce exactly that combination from per-term MiniSearch scores cached once
 * per term, so a never-seen query costs a few array additions instead of a full MiniSearch query (~0.5 ms).
 */
import MiniSearch from "minisearch";
import { getCatalog, type Product } from "./catalog";
import { contentTokens, squash } from "./text";

/** WebShop's search returns at most this many products. */
export const MAX_RESULTS = 50;

/** Two fields: the title, and everything else a listing says. */
interface SearchDoc {
  id: number;
  title: string;
  body: string;
}

function toDoc(p: Product, i: number): SearchDoc {
  return {
    id: i,
    title: p.title,
    body: [p.category, p.subcategory, p.productType, ...p.attributes, p.description, ...p.features].join(" "),
  };
}

/** Catalog indices of the products a term matches, with their BM25+ scores. */
interface TermHits {
  docs: Int32Array;
  scores: Float64Array;
}

interface Engine {
  index: MiniSearch<SearchDoc>;
  asins: readonly string[];
  terms: Map<string, TermHits>;
  /** Scratch buffers reused across queries (one query at a time: JavaScript is single-threaded here). */
  sum: Float64Array;
  matched: Uint8Array;
}

let engine: Engine | undefined;
const memo = new Map<string, readonly string[]>();
/** Bounds the memo for long-running workers that see many distinct (generated) queries. */
const MEMO_LIMIT = 20_000;

function getEngine(): Engine {
  if (engine) return engine;
  const products = getCatalog().products;
  const index = new MiniSearch<SearchDoc>({
    fields: ["title", "body"],
    // The shop's one tokenizer, so "men's" and "mens" meet, and stopwords never decide a ranking.
    tokenize: (text) => contentTokens(text),
    processTerm: (term) => term,
    // The title says what the product is; the body repeats attributes and type words many times over.
    searchOptions: { boost: { title: 2, body: 1 }, combineWith: "OR" },
  });
  index.addAll(products.map(toDoc));
  engine = {
    index,
    asins: products.map((p) => p.asin),
    terms: new Map(),
    sum: new Float64Array(products.length),
    matched: new Uint8Array(products.length),
  };
  return engine;
}

function termHits(e: Engine, term: string): TermHits {
  const hit = e.terms.get(term);
  if (hit) return hit;
  const results = e.index.search(term);
  const hits: TermHits = {
    docs: Int32Array.from(results, (r) => Number(r.id)),
    scores: Float64Array.from(results, (r) => r.score),
  };
  e.terms.set(term, hits);
  return hits;
}

function rank(e: Engine, query: string): string[] {
  const terms = [...new Set(contentTokens(query))];
  const touched: number[] = [];
  for (const term of terms) {
    const { docs, scores } = termHits(e, term);
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i] as number;
      if (e.matched[d] === 0) touched.push(d);
      e.matched[d] = (e.matched[d] as number) + 1;
      e.sum[d] = (e.sum[d] as number) + (scores[i] as number);
    }
  }
  const scored = touched.map((d) => ({ d, score: (e.sum[d] as number) * (e.matched[d] as number) }));
  for (const d of touched) {
    e.sum[d] = 0;
    e.matched[d] = 0;
  }
  // Ties go to catalog order, so rankings never depend on cache history.
  scored.sort((a, b) => b.score - a.score || a.d - b.d);
  return scored.slice(0, MAX_RESULTS).map((s) => e.asins[s.d] as string);
}

/** Ranked product ids for a query, best first, at most MAX_RESULTS. Deterministic for a given catalog. */
export function searchProducts(query: string): readonly string[] {
  const key = squash(query);
  const hit = memo.get(key);
  if (hit) return hit;
  const ids = rank(getEngine(), key);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, ids);
  return ids;
}
