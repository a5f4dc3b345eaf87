/**
 * WebShop's reward at "Buy Now" (Yao et al. 2022, web_agent_site/engine/goal.py, get_reward):
 *
 *   r = r_type × (|matched attributes| + |matched options| + [price <= budget]) / (|attributes| + |options| + 1)
 *
 * r_type, as WebShop computes it (get_type_reward):
 *   query_match    = the bought product was scraped under the goal's search query (here: same product type);
 *   category_match = the two category breadcrumbs share >= 2 levels (here: [category, subcategory, type]);
 *   title_score    = share of the goal name's nouns found among the bought product's nouns (WebShop tags nouns
 *                    with spaCy; our names are "Brand Line Type", all nouns, so we take their content words);
 *   r_type = 1, or 0.5 if none of query_match, category_match, title_score > 0.2 holds; then 0.1 if
 *   title_score < 0.1, and 0 if title_score == 0.
 * Attributes (get_attribute_reward): token_set_ratio > 85 against one of the product's attributes, else found
 * in its title, bullet points or description (WebShop: as a substring; we also accept every word of the
 * attribute appearing there).
 * Options (get_option_reward): each goal option value against the chosen values. WebShop uses
 * token_set_ratio > 85 after collapsing colours to a base colour, which makes "8 oz (pack of 1)" match
 * "8 oz (pack of 2)" and "large" match "x-large"; we compare normalized values exactly instead (spelling and
 * unit variants folded, see normalizeOption), so an option constraint means what the instruction says.
 * This strict rule is the environment's reward and success; WebShop's own rule, fuzzy options and attributes
 * without our every-word fallback, is scored beside it in webshopRule.ts.
 */
import type { ShopGoal } from "./goal-schema";
import { contentTokens, normalizeOption, tokenSetRatio, tokens } from "./text";

/** What the reward needs to know about the bought product; a catalog Product satisfies it. */
export interface PurchasedProduct {
  name: string;
  title: string;
  description: string;
  features: readonly string[];
  attributes: readonly string[];
  productType: string;
  category: string;
  subcategory: string;
  price: number;
}

/** The part of a goal the reward reads. */
export type RewardGoal = Pick<
  ShopGoal,
  "name" | "productType" | "category" | "subcategory" | "attributes" | "options" | "priceUpper"
>;

export interface TypeReward {
  rType: number;
  queryMatch: boolean;
  categoryMatch: boolean;
  titleScore: number;
}

export interface ShopRewardBreakdown extends TypeReward {
  reward: number;
  matchedAttributes: string[];
  matchedOptions: string[];
  priceOk: boolean;
}

/** WebShop's fuzzy-match threshold for token_set_ratio. */
const FUZZ_THRESHOLD = 85;

function nouns(name: string): Set<string> {
  return new Set(contentTokens(name).filter((t) => !/^\d+$/.test(t)));
}

export function typeReward(
  goal: Pick<RewardGoal, "name" | "productType" | "category" | "subcategory">,
  p: PurchasedProduct,
): TypeReward {
  const queryMatch = p.productType === goal.productType;
  const goalPath = new Set([goal.category, goal.subcategory, goal.productType]);
  const shared = [p.category, p.subcategory, p.productType].filter((level) => goalPath.has(level)).length;
  const categoryMatch = shared >= 2;
  const wanted = nouns(goal.name);
  const bought = nouns(p.name);
  const titleScore = wanted.size === 0 ? 0.2 : [...wanted].filter((t) => bought.has(t)).length / wanted.size;
  let rType = 1;
  if (!(queryMatch || categoryMatch || titleScore > 0.2)) rType = 0.5;
  if (titleScore < 0.1) rType = 0.1;
  if (titleScore === 0) rType = 0;
  return { rType, queryMatch, categoryMatch, titleScore };
}

export function attributeMatched(goalAttribute: string, p: PurchasedProduct): boolean {
  if (p.attributes.some((a) => tokenSetRatio(a, goalAttribute) > FUZZ_THRESHOLD)) return true;
  const text = [p.title, ...p.features, p.description].join(" ").toLowerCase();
  const wanted = goalAttribute.toLowerCase().trim();
  if (wanted.length > 0 && text.includes(wanted)) return true;
  const words = new Set(tokens(text));
  const needed = tokens(wanted);
  return needed.length > 0 && needed.every((t) => words.has(t));
}

export function optionMatched(goalValue: string, chosenValues: readonly string[]): boolean {
  const wanted = normalizeOption(goalValue);
  return chosenValues.some((v) => normalizeOption(v) === wanted);
}

export function shopReward(
  goal: RewardGoal,
  purchased: PurchasedProduct,
  chosenOptions: Readonly<Record<string, string>>,
): ShopRewardBreakdown {
  const type = typeReward(goal, purchased);
  const matchedAttributes = goal.attributes.filter((a) => attributeMatched(a, purchased));
  const chosen = Object.values(chosenOptions);
  const matchedOptions = Object.values(goal.options).filter((v) => optionMatched(v, chosen));
  const priceOk = purchased.price <= goal.priceUpper;
  const total = goal.attributes.length + Object.keys(goal.options).length + 1;
  const reward =
    (type.rType * (matchedAttributes.length + matchedOptions.length + (priceOk ? 1 : 0))) / total;
  return { ...type, reward, matchedAttributes, matchedOptions, priceOk };
}

/** Success is a perfect score, as in WebShop's success rate. */
export function isShopSuccess(reward: number): boolean {
  return Math.abs(reward - 1) < 1e-9;
}
