/**
 * What a model must know to write valid shop goals: the goal's fields, WebShop's recipe, and the catalog facts it
 * cannot guess (which products of the type exist, their attributes, options and prices). Without the product
 * list a model invents asins and attributes, and every goal is dropped.
 */
import { getCatalog, getProduct, type Product, type ShopGoal } from "../envs/shop";
import { identity } from "../envs/shop/goal";
import type { Rng } from "../util/random";
import type { DomainPromptContext } from "./openaiPrompt";

/** Products of the same type shown besides the seed's own: enough choice, a bounded prompt. */
const SIBLINGS_SHOWN = 8;

const GOAL_FORMAT = [
  "A shop goal is a JSON object:",
  '{"asin": string, "name": string, "brand": string, "productType": string, "category": string,',
  ' "subcategory": string, "attributes": [string, ...], "options": {"<option type>": "<value>", ...},',
  ' "priceUpper": number, "mentionBrand": boolean}',
  'The instruction the agent reads is written from the goal, e.g. "i need <attributes> <productType> in <option>,',
  'and price lower than <priceUpper> dollars". The agent searches, opens a product, chooses options and buys.',
].join("\n");

function listing(p: Product): string {
  return JSON.stringify({
    ...identity(p),
    attributes: p.attributes,
    options: p.options,
    price: p.price,
  });
}

export function shopPromptContext(goal: ShopGoal, rng: Rng): DomainPromptContext {
  const own = getProduct(goal.asin);
  const siblings = getCatalog()
    .goalPool("train")
    .filter((p) => p.productType === goal.productType && p.asin !== goal.asin);
  const shown = [...(own ? [own] : []), ...rng.sample(siblings, SIBLINGS_SHOWN)];
  const constraints = [
    "- asin: one of the products listed below; copy its name, brand, productType, category and subcategory exactly.",
    `- Keep the product type "${goal.productType}", so the agent's actions stay the same kind.`,
    "- attributes: 1 to 3 of that product's attributes, copied exactly.",
    "- options: 0 to 2 of that product's option types, each with one value that product offers, copied exactly.",
    "- priceUpper: a multiple of 10 at or above that product's price (WebShop uses one of the first steps above it).",
    "- Change the constraints or the goal: another listed product, another option value, one attribute or option",
    "  more or less, a tighter or looser budget. Every goal must differ from the seed goal and from the others.",
    "",
    "## Products you may use (one JSON object per line)",
    ...shown.map(listing),
  ].join("\n");
  return { goalFormat: GOAL_FORMAT, constraints };
}
