/**
 * The product catalog: WebShop scraped ~1.18M Amazon listings; we generate a small, varied catalog from a fixed
 * seed instead, so every process and every version sees the same products under the same ids.
 */
import type { Split } from "../../types";
import { hashString, Rng } from "../../util/random";
import { CATEGORIES, type CategorySpec, type ProductTypeSpec } from "./catalog-data";
import { titleCase } from "./text";

export interface Product {
  /** Short stable id in Amazon's style ("B0" + base 36), shown on result pages and clicked by agents. */
  asin: string;
  category: string;
  subcategory: string;
  productType: string;
  brand: string;
  /** Brand + line + type, e.g. "Aveline Hydra Repair Shampoo": WebShop's product "name". */
  name: string;
  title: string;
  description: string;
  /** Bullet points, WebShop's "BulletPoints" shown on the Features page. */
  features: string[];
  attributes: string[];
  /** Option type -> offered values, in display order. */
  options: Record<string, string[]>;
  price: number;
  /** Stars out of 5; null renders as "N.A." like unrated WebShop items. */
  rating: number | null;
}

export interface Catalog {
  products: readonly Product[];
  byAsin: ReadonlyMap<string, Product>;
  /** Goal products of a split: test goals come from a held-out fifth of the catalog, train goals from the rest. */
  goalPool(split: Split): readonly Product[];
}

/** Changing this seed changes every product and every task: never do it. */
export const CATALOG_SEED = "shop-catalog-v1";
/** Titles longer than this would crowd the 10-item results page. */
const MAX_TITLE = 72;
const ID_SPACE = 36 ** 6;

/** Index -> id through a bijection of [0, 36^6) so ids look scattered but can never collide. */
function asinFor(index: number): string {
  const scrambled = (index * 7919 + 104729) % ID_SPACE;
  return `B0${scrambled.toString(36).toUpperCase().padStart(6, "0")}`;
}

export function isTestGoalProduct(asin: string): boolean {
  return hashString(`shop-split:${asin}`) % 5 === 0;
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function makePrice(rng: Rng, [lo, hi]: readonly [number, number]): number {
  // Skewed towards the cheap end, as marketplace prices are.
  const raw = lo + (hi - lo) * rng.next() ** 1.6;
  const cents = rng.pick([0.99, 0.49, 0.95, 0.0, 0.79]);
  return Math.max(1, Math.floor(raw)) + cents;
}

function makeTitle(name: string, attributes: readonly string[]): string {
  const first = attributes[0];
  const second = attributes[1];
  if (first === undefined) return name;
  const one = `${name}, ${titleCase(first)}`;
  if (second === undefined) return one;
  const two = `${one} & ${titleCase(second)}`;
  return two.length <= MAX_TITLE ? two : one;
}

const FEATURE_TEMPLATES = [
  "{ATTR} - {attr}, checked batch by batch",
  "{ATTR} - {attr}, as promised by {brand}",
  "{ATTR} - {attr} without compromise",
];

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_m, key: string) => values[key] ?? "");
}

function makeProduct(rng: Rng, index: number, cat: CategorySpec, spec: ProductTypeSpec): Product {
  const brand = rng.pick(cat.brands);
  const line = rng.pick(cat.lines);
  const name = `${brand} ${line} ${titleCase(spec.type)}`;
  const attributes = rng.sample(spec.attributes, rng.int(3, Math.min(5, spec.attributes.length)));
  const options: Record<string, string[]> = {};
  for (const [optionType, pool] of Object.entries(spec.options)) {
    const count = Math.min(pool.length, rng.int(2, 5));
    const chosen = new Set(rng.sample(pool, count));
    options[optionType] = pool.filter((v) => chosen.has(v));
  }
  const described = attributes.slice(0, 2);
  const optionText = Object.entries(options)
    .map(([t, vs]) => `${vs.length} ${t} choices`)
    .join(" and ");
  const description = [
    fill(rng.pick(cat.blurbs), { name, type: spec.type }),
    `Highlights: ${joinAnd(described)}.`,
    optionText ? `Offered in ${optionText}.` : "",
  ]
    .filter((s) => s.length > 0)
    .join(" ");
  const features = rng
    .shuffle(attributes)
    .map((attr) => fill(rng.pick(FEATURE_TEMPLATES), { ATTR: attr.toUpperCase(), attr, brand }));
  features.push(`WHAT YOU GET - one ${spec.type} from ${brand}, with friendly customer service`);
  return {
    asin: asinFor(index),
    category: cat.category,
    subcategory: spec.subcategory,
    productType: spec.type,
    brand,
    name,
    title: makeTitle(name, attributes),
    description,
    features,
    attributes,
    options,
    price: makePrice(rng, spec.price),
    rating: rng.chance(0.35) ? null : Math.round((3 + 2 * rng.next()) * 10) / 10,
  };
}

export function buildCatalog(seed: string = CATALOG_SEED): Catalog {
  const rng = new Rng(seed);
  const products: Product[] = [];
  for (const cat of CATEGORIES) {
    for (const spec of cat.types) {
      const count = rng.int(16, 24);
      for (let i = 0; i < count; i++) products.push(makeProduct(rng, products.length, cat, spec));
    }
  }
  const byAsin = new Map(products.map((p) => [p.asin, p]));
  const test = products.filter((p) => isTestGoalProduct(p.asin));
  const train = products.filter((p) => !isTestGoalProduct(p.asin));
  return { products, byAsin, goalPool: (split) => (split === "test" ? test : train) };
}

let cached: Catalog | undefined;

/** The process-wide catalog, built on first use. */
export function getCatalog(): Catalog {
  cached ??= buildCatalog();
  return cached;
}

/** Case-insensitive lookup, since agents type ids in lowercase. */
export function getProduct(asin: string): Product | undefined {
  return getCatalog().byAsin.get(asin.trim().toUpperCase());
}
