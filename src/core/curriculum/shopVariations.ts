/**
 * Embedded variations of a shop task. Every edit keeps the task's action types (search, open a product, pick
 * options, buy) and changes what must be bought: another product of the same type, another option value the
 * product offers, one attribute or option more or less, a tighter or looser budget. Goals stay within WebShop's
 * recipe (1-3 attributes, 0-2 options, a budget on the $10 grid above the price), and the goal product always
 * comes from the train part of the catalog.
 */
import { getCatalog, getProduct, type Product, priceUpperFor, type ShopGoal } from "../envs/shop";
import { identity } from "../envs/shop/goal";
import { OperatorTaskGenerator, type VariationOperator } from "./operators";
import { shopGoals } from "./shopGoals";

const MAX_ATTRIBUTES = 3;
const MAX_OPTIONS = 2;
/** WebShop's budgets are multiples of $10. */
const PRICE_STEP = 10;

function productOf(goal: ShopGoal): Product {
  const product = getProduct(goal.asin);
  // The parent goal passed checkShopGoal, which looks the product up: reaching this is a catalog bug.
  if (!product) throw new Error(`shop variation: goal product ${goal.asin} is not in the catalog`);
  return product;
}

function withoutKey(record: Readonly<Record<string, string>>, key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
}

const siblingProduct: VariationOperator<ShopGoal> = {
  kind: "another product of the same type",
  apply(goal, rng) {
    const siblings = getCatalog()
      .goalPool("train")
      .filter((p) => p.productType === goal.productType && p.asin !== goal.asin);
    if (siblings.length === 0) return undefined;
    const sibling = rng.pick(siblings);
    // Same shape of request: as many attributes, the same option types, the shared attributes kept.
    const shared = sibling.attributes.filter((a) => goal.attributes.includes(a));
    const others = rng.shuffle(sibling.attributes.filter((a) => !goal.attributes.includes(a)));
    const attributes = [...shared, ...others].slice(0, Math.max(1, goal.attributes.length));
    const options: Record<string, string> = {};
    for (const [type, value] of Object.entries(goal.options)) {
      const offered = sibling.options[type];
      if (offered && offered.length > 0) options[type] = offered.includes(value) ? value : rng.pick(offered);
    }
    return {
      ...identity(sibling),
      attributes,
      options,
      priceUpper: priceUpperFor(sibling.price, rng),
      mentionBrand: goal.mentionBrand,
    };
  },
};

const optionValue: VariationOperator<ShopGoal> = {
  kind: "another option value of the same product",
  apply(goal, rng) {
    const product = productOf(goal);
    const types = Object.keys(goal.options).filter((t) => (product.options[t]?.length ?? 0) > 1);
    if (types.length === 0) return undefined;
    const type = rng.pick(types);
    const values = (product.options[type] ?? []).filter((v) => v !== goal.options[type]);
    return { ...goal, options: { ...goal.options, [type]: rng.pick(values) } };
  },
};

const addOption: VariationOperator<ShopGoal> = {
  kind: "one option more",
  apply(goal, rng) {
    if (Object.keys(goal.options).length >= MAX_OPTIONS) return undefined;
    const product = productOf(goal);
    const types = Object.keys(product.options).filter(
      (t) => !(t in goal.options) && (product.options[t]?.length ?? 0) > 0,
    );
    if (types.length === 0) return undefined;
    const type = rng.pick(types);
    return { ...goal, options: { ...goal.options, [type]: rng.pick(product.options[type] ?? []) } };
  },
};

const removeOption: VariationOperator<ShopGoal> = {
  kind: "one option less",
  apply(goal, rng) {
    const types = Object.keys(goal.options);
    if (types.length === 0) return undefined;
    return { ...goal, options: withoutKey(goal.options, rng.pick(types)) };
  },
};

const addAttribute: VariationOperator<ShopGoal> = {
  kind: "one attribute more",
  apply(goal, rng) {
    if (goal.attributes.length >= MAX_ATTRIBUTES) return undefined;
    const extra = productOf(goal).attributes.filter((a) => !goal.attributes.includes(a));
    if (extra.length === 0) return undefined;
    return { ...goal, attributes: [...goal.attributes, rng.pick(extra)] };
  },
};

const removeAttribute: VariationOperator<ShopGoal> = {
  kind: "one attribute less",
  apply(goal, rng) {
    if (goal.attributes.length <= 1) return undefined;
    const drop = rng.pick(goal.attributes);
    return { ...goal, attributes: goal.attributes.filter((a) => a !== drop) };
  },
};

const tightenBudget: VariationOperator<ShopGoal> = {
  kind: "a tighter budget",
  apply(goal, rng) {
    const price = productOf(goal).price;
    const steps: number[] = [];
    for (let s = PRICE_STEP * Math.floor(price / PRICE_STEP + 1); s < goal.priceUpper; s += PRICE_STEP)
      steps.push(s);
    if (steps.length === 0) return undefined;
    return { ...goal, priceUpper: rng.pick(steps) };
  },
};

const loosenBudget: VariationOperator<ShopGoal> = {
  kind: "a looser budget",
  apply(goal, rng) {
    const base = PRICE_STEP * Math.floor(goal.priceUpper / PRICE_STEP);
    return { ...goal, priceUpper: base + PRICE_STEP * rng.int(1, 3) };
  },
};

export const SHOP_OPERATORS: readonly VariationOperator<ShopGoal>[] = [
  siblingProduct,
  optionValue,
  addOption,
  removeOption,
  addAttribute,
  removeAttribute,
  tightenBudget,
  loosenBudget,
];

export function shopTaskGenerator(): OperatorTaskGenerator<ShopGoal> {
  return new OperatorTaskGenerator("embedded:shop", shopGoals, SHOP_OPERATORS);
}
