/**
 * Goals and tasks. Like WebShop's synthetic goals: pick a goal product, ask for 1-3 of its attributes and 0-2 of
 * its option values, and a budget a little above its price. Generated goals (curriculum variations) go through
 * the same validation, so every task the shop accepts can score 1.
 */
import type { Split, Task } from "../../types";
import { hashString, Rng } from "../../util/random";
import { type TaskMeta, taskFromGoal } from "../domain";
import { getCatalog, getProduct, type Product } from "./catalog";
import { ShopGoal } from "./goal-schema";
import { attributeMatched } from "./reward";
import { normalizeOption } from "./text";

export { ShopGoal } from "./goal-schema";

export const SHOP_DOMAIN = "shop";

/** WebShop's price grid: the budget is drawn from the first steps of this grid above the goal price. */
const PRICE_STEPS = Array.from({ length: 99 }, (_, i) => 10 * (i + 1));

/** WebShop: sample two of the first four grid steps above the price and keep the larger as the budget. */
export function priceUpperFor(price: number, rng: Rng): number {
  const above = PRICE_STEPS.filter((p) => p > price).slice(0, 4);
  if (above.length >= 2) return Math.max(...rng.sample(above, 2));
  return above[0] ?? Math.ceil(price * 2);
}

/** Product fields a goal carries so the reward is a pure function of (goal, bought product, options). */
/** The fields of a goal that name its product. */
export function identity(
  p: Product,
): Pick<ShopGoal, "asin" | "name" | "brand" | "productType" | "category" | "subcategory"> {
  return {
    asin: p.asin,
    name: p.name,
    brand: p.brand,
    productType: p.productType,
    category: p.category,
    subcategory: p.subcategory,
  };
}

export function sampleShopGoal(product: Product, rng: Rng): ShopGoal {
  const attributes = rng.sample(product.attributes, rng.int(1, Math.min(3, product.attributes.length)));
  const optionTypes = Object.keys(product.options);
  const optionCount = Math.min(optionTypes.length, rng.pick([0, 1, 1, 2, 2]));
  const options: Record<string, string> = {};
  for (const type of rng.sample(optionTypes, optionCount)) {
    options[type] = rng.pick(product.options[type] ?? []);
  }
  return {
    ...identity(product),
    attributes,
    options,
    priceUpper: priceUpperFor(product.price, rng),
    mentionBrand: rng.chance(0.3),
  };
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** How a WebShop instruction phrases an option, e.g. "in size x-large", "in navy blue color", "for iphone 15". */
function optionPhrase(type: string, value: string): string {
  switch (type) {
    case "size":
      return `in size ${value}`;
    case "color":
      return `in ${value} color`;
    case "model":
      return `for ${value}`;
    case "capacity":
      return `with ${value} capacity`;
    case "pack":
    case "sun protection":
      return `in ${value}`;
    default:
      return value.endsWith(type) ? `in ${value}` : `in ${value} ${type}`;
  }
}

/** The instruction text of a goal; `variant` picks one of WebShop-like phrasings. */
export function instructionFor(goal: ShopGoal, variant: number): string {
  const phrase = goal.mentionBrand ? `${goal.brand.toLowerCase()} ${goal.productType}` : goal.productType;
  const attrs = joinAnd(goal.attributes);
  const opts = Object.entries(goal.options)
    .map(([t, v]) => optionPhrase(t, v))
    .join(" and ");
  const price = `price lower than ${goal.priceUpper.toFixed(2)} dollars`;
  const words = (...parts: string[]) => parts.filter((p) => p.length > 0).join(" ");
  switch (variant % 5) {
    case 0:
      return `${words("i need", attrs, phrase, opts)}, and ${price}`;
    case 1:
      return `${words("i am looking for", attrs, phrase, opts)}, and ${price}`;
    case 2:
      return `${words("find me", attrs, phrase, opts)}, and ${price}`;
    case 3:
      return `${words("i want to buy", attrs, phrase, opts)}, and ${price}`;
    default: {
      const that = attrs ? ` that is ${attrs}` : "";
      return `i'm looking for a ${phrase}${that}${opts ? `, ${opts}` : ""}, and ${price}`;
    }
  }
}

export type ShopGoalCheck = { ok: true; goal: ShopGoal } | { ok: false; errors: string[] };

/** Whether a goal is well formed and satisfiable: its product exists and itself meets every constraint. */
export function checkShopGoal(input: unknown): ShopGoalCheck {
  const parsed = ShopGoal.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map(
        (i) => `goal.${i.path.map(String).join(".") || "(root)"}: ${i.message}`,
      ),
    };
  }
  const goal = parsed.data;
  const product = getProduct(goal.asin);
  if (!product)
    return { ok: false, errors: [`goal.asin: "${goal.asin}" is not a product in the shop catalog`] };
  const errors: string[] = [];
  for (const key of ["name", "brand", "productType", "category", "subcategory"] as const) {
    if (goal[key] !== product[key]) {
      errors.push(`goal.${key}: "${goal[key]}" does not match product ${product.asin} ("${product[key]}")`);
    }
  }
  goal.attributes.forEach((a, i) => {
    if (!attributeMatched(a, product)) {
      errors.push(
        `goal.attributes[${i}]: "${a}" is not an attribute of ${product.asin} (has: ${product.attributes.join(", ")})`,
      );
    }
  });
  for (const [type, value] of Object.entries(goal.options)) {
    const offered = product.options[type];
    if (!offered) {
      const types = Object.keys(product.options);
      errors.push(
        `goal.options.${type}: product ${product.asin} has no option type "${type}" (has: ${types.join(", ") || "none"})`,
      );
    } else if (!offered.some((v) => normalizeOption(v) === normalizeOption(value))) {
      errors.push(
        `goal.options.${type}: "${value}" is not offered by ${product.asin} (offers: ${offered.join(", ")})`,
      );
    }
  }
  if (goal.priceUpper < product.price) {
    errors.push(
      `goal.priceUpper: ${goal.priceUpper.toFixed(2)} is below the price of ${product.asin} ($${product.price.toFixed(2)})`,
    );
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, goal };
}

export class ShopGoalError extends Error {
  constructor(readonly errors: string[]) {
    super(`invalid shop goal: ${errors.join("; ")}`);
    this.name = "ShopGoalError";
  }
}

/** The parsed goal, or a ShopGoalError naming every problem. */
export function validateShopGoal(input: unknown): ShopGoal {
  const check = checkShopGoal(input);
  if (!check.ok) throw new ShopGoalError(check.errors);
  return check.goal;
}

/** A goal for a catalog product from just the constraints (the product's identity is filled in), validated. */
export function makeShopGoal(spec: {
  asin: string;
  attributes: string[];
  options: Record<string, string>;
  priceUpper: number;
  mentionBrand?: boolean;
}): ShopGoal {
  const product = getProduct(spec.asin);
  if (!product) throw new ShopGoalError([`goal.asin: "${spec.asin}" is not a product in the shop catalog`]);
  return validateShopGoal({ ...identity(product), ...spec, mentionBrand: spec.mentionBrand ?? false });
}

export interface ShopTaskMeta extends TaskMeta {
  /** Defaults to a WebShop-style instruction rendered from the goal. */
  instruction?: string;
}

/** A Task around a goal; throws ShopGoalError if the goal cannot be scored to 1 in this catalog. */
export function shopTaskFromGoal(goal: unknown, meta: ShopTaskMeta): Task {
  const valid = validateShopGoal(goal);
  return taskFromGoal(
    SHOP_DOMAIN,
    meta.instruction ?? instructionFor(valid, hashString(meta.id)),
    valid,
    meta,
  );
}

/** Seed task `index` of a split; test goals come from products never used for train goals. */
export function shopTask(split: Split, index: number): Task {
  if (!Number.isInteger(index) || index < 0)
    throw new Error(`shop task index must be a natural number, got ${index}`);
  const id = `${SHOP_DOMAIN}:${split}:${index}`;
  const rng = new Rng(hashString(id));
  const product = rng.pick(getCatalog().goalPool(split));
  return shopTaskFromGoal(sampleShopGoal(product, rng), { id, split, origin: "seed", generation: 0 });
}
