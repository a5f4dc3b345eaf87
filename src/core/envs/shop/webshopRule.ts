/**
 * WebShop's own reward rule (web_agent_site/engine/goal.py, get_reward, on WebShop's master branch), beside the
 * shop's strict rule (reward.ts), which stays the environment's reward. Both share the formula
 *
 *   r = r_type × (|matched attributes| + |matched options| + r_price) / (|attributes| + |options| + 1)
 *
 * and r_type and r_price; they differ in when an attribute or an option counts as matched:
 *
 * - attributes (get_attribute_reward): token_set_ratio(product attribute, goal attribute) > 85 for one of the
 *   product's attributes, else the goal attribute as a substring of the lowercased title, of the bullet points
 *   joined by spaces, or of the description. Nothing else: the strict rule's third chance, every word of the
 *   attribute somewhere in that text, has no counterpart here.
 * - options (get_option_reward): each goal option counts once when some chosen value scores
 *   token_set_ratio > 85 against it, both sides first collapsed to a base colour (webshopColors.ts). The strict
 *   rule asks for the same value instead (normalizeOption equality), so "large" for "x-large" fails there.
 *
 * What get_reward hands get_option_reward is asymmetric: the chosen options as plain values, the goal's as
 * (type, value) pairs (`goal['goal_options'].items()`). So the goal side is collapsed by tuple membership and
 * scored as its type's and value's words ("size x-large"). Two consequences, both in WebShop as it runs:
 * a chosen value whose words all appear among the goal's ("large" for "x-large", "small" for "x-small") scores
 * 100, the reverse ("x-large" for "large") only 83 and fails; and a value that colour collapsing shortens
 * ("sandalwood" -> "sand") no longer matches its own goal pair, so buying exactly what was asked can fail.
 * WebShop's unit tests call get_option_reward with plain values on both sides; `goalOptionsAs: "values"` scores
 * that reading, for comparison. The default, "pairs", is the rule WebShop's environment computes.
 */
import { tokenSetRatio } from "./fuzz";
import { isShopSuccess, type PurchasedProduct, type RewardGoal, typeReward } from "./reward";
import { normalizeColor, normalizeColorPair } from "./webshopColors";

/** WebShop's threshold: a fuzzy score counts when above it (on thefuzz's integer score). */
export const WEBSHOP_FUZZ_THRESHOLD = 85;

/** How the goal's options reach token_set_ratio: as WebShop's get_reward passes them, or as its tests do. */
export type GoalOptionsAs = "pairs" | "values";

/** The four parts of the rule, each as WebShop's verbose info reports it. */
export interface WebshopParts {
  /** r_type (get_type_reward): 1, 0.5, 0.1 or 0; the same function as the strict rule's. */
  type: number;
  /** r_att: matched goal attributes / goal attributes; null for a goal without any (WebShop's always have one). */
  attributes: number | null;
  /** r_option: matched goal options / goal options; null for a goal without options, as in WebShop. */
  options: number | null;
  /** r_price: 1 when the price is within the budget (price <= price_upper), else 0. */
  price: number;
}

export interface WebshopScore {
  /** get_reward's total. */
  reward: number;
  /** WebShop's success: a reward of exactly 1. */
  success: boolean;
  parts: WebshopParts;
  /** The goal attributes that counted. */
  matchedAttributes: string[];
  /** The goal option types whose value counted. */
  matchedOptions: string[];
}

/** get_attribute_reward's test for one goal attribute. */
export function webshopAttributeMatched(goalAttribute: string, p: PurchasedProduct): boolean {
  if (p.attributes.some((a) => tokenSetRatio(a, goalAttribute) > WEBSHOP_FUZZ_THRESHOLD)) return true;
  return (
    p.title.toLowerCase().includes(goalAttribute) ||
    p.features.join(" ").toLowerCase().includes(goalAttribute) ||
    p.description.toLowerCase().includes(goalAttribute)
  );
}

/** get_option_reward's test for one goal option against every chosen value. */
export function webshopOptionMatched(
  type: string,
  value: string,
  chosenValues: readonly string[],
  goalOptionsAs: GoalOptionsAs = "pairs",
): boolean {
  const wanted = goalOptionsAs === "pairs" ? normalizeColorPair(type, value) : normalizeColor(value);
  return chosenValues.some((v) => tokenSetRatio(normalizeColor(v), wanted) > WEBSHOP_FUZZ_THRESHOLD);
}

/** WebShop's get_reward for buying `purchased` with `chosenOptions` (option type -> clicked value). */
export function webshopScore(
  goal: RewardGoal,
  purchased: PurchasedProduct,
  chosenOptions: Readonly<Record<string, string>>,
  options: { goalOptionsAs?: GoalOptionsAs } = {},
): WebshopScore {
  const type = typeReward(goal, purchased).rType;
  const matchedAttributes = goal.attributes.filter((a) => webshopAttributeMatched(a, purchased));
  const chosen = Object.values(chosenOptions);
  const goalOptions = Object.entries(goal.options);
  const matchedOptions = goalOptions
    .filter(([t, v]) => webshopOptionMatched(t, v, chosen, options.goalOptionsAs))
    .map(([t]) => t);
  const price = purchased.price <= goal.priceUpper ? 1 : 0;
  const total = goal.attributes.length + goalOptions.length + 1;
  const reward = (type * (matchedAttributes.length + matchedOptions.length + price)) / total;
  return {
    reward,
    success: isShopSuccess(reward),
    parts: {
      type,
      attributes: goal.attributes.length > 0 ? matchedAttributes.length / goal.attributes.length : null,
      options: goalOptions.length > 0 ? matchedOptions.length / goalOptions.length : null,
      price,
    },
    matchedAttributes,
    matchedOptions,
  };
}
