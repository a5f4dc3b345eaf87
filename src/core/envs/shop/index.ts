/**
 * The shop: an offline, deterministic re-creation of WebShop (Yao et al. 2022) as a DreamGym real domain.
 *
 * Where it departs from WebShop, and why:
 * - Catalog: 1,593 generated products in WebShop's five categories instead of 1.18M scraped listings, so it
 *   ships in the repo, builds in milliseconds and never changes.
 * - Options are matched by normalized equality, not token_set_ratio > 85 with colour collapsing (which makes
 *   "pack of 1" match "pack of 2" and "large" match "x-large"); attribute and type matching follow WebShop.
 *   That strict rule is the reward; WebShop's own rule (webshopRule.ts) is reported beside it in the last
 *   step's info (webshopVerdict.ts), so results can be read under either.
 * - r_type's noun sets come from product names ("Brand Line Type") rather than spaCy noun tagging.
 * - The item page says which options are selected (WebShop shows pressed radio buttons, text mode loses them),
 *   and there is no Reviews page (WebShop's is empty for most items).
 * - Tasks: goals are WebShop-style synthetic goals (1-3 attributes, 0-2 options, a price grid budget) with
 *   templated instructions, not crowd-written ones; test goals come from a held-out fifth of the products.
 */

import type { Split } from "../../types";
import type { RealDomain } from "../domain";
import { MAX_STEPS, ShopEnvironment } from "./env";
import { shopTask } from "./goal";
import { candidateActions, expertPolicy, noisyPolicy, randomPolicy } from "./policies";

export type { Catalog, Product } from "./catalog";
export { buildCatalog, CATALOG_SEED, getCatalog, getProduct, isTestGoalProduct } from "./catalog";
export type { ShopAction } from "./env";
export { MAX_STEPS, parseShopAction, replay, ShopEnvironment } from "./env";
export type { ShopGoalCheck, ShopTaskMeta } from "./goal";
export {
  checkShopGoal,
  instructionFor,
  makeShopGoal,
  priceUpperFor,
  SHOP_DOMAIN,
  ShopGoal,
  ShopGoalError,
  sampleShopGoal,
  shopTask,
  shopTaskFromGoal,
  validateShopGoal,
} from "./goal";
export type { PageKind, ShopPage } from "./pages";
export { BUTTON, pageKindOf, RESULTS_PER_PAGE, SEARCH_TEMPLATE } from "./pages";
export { candidateActions, expertAction, expertPolicy, noisyPolicy, randomPolicy } from "./policies";
export { searchQueries, withoutPriceClause } from "./queries";
export type { PurchasedProduct, RewardGoal, ShopRewardBreakdown, TypeReward } from "./reward";
export { attributeMatched, isShopSuccess, optionMatched, shopReward, typeReward } from "./reward";
export { MAX_RESULTS, searchProducts } from "./search";
export type { GoalOptionsAs, WebshopParts, WebshopScore } from "./webshopRule";
export {
  WEBSHOP_FUZZ_THRESHOLD,
  webshopAttributeMatched,
  webshopOptionMatched,
  webshopScore,
} from "./webshopRule";
export type { WebshopVerdict } from "./webshopVerdict";
export { WEBSHOP_INFO_KEY, webshopVerdictOf } from "./webshopVerdict";

export const shop: RealDomain = {
  name: "shop",
  maxSteps: MAX_STEPS,
  task: shopTask,
  tasks: (split: Split, count: number) => Array.from({ length: count }, (_, i) => shopTask(split, i)),
  createEnvironment: () => new ShopEnvironment(),
  candidateActions,
  expert: expertPolicy,
  random: randomPolicy,
  noisy: noisyPolicy,
  declarations: {
    // "price lower than 40.00 dollars" (also "under $25", "less than 100") bounds the "$32.99" of a page.
    amountBound: {
      instruction: String.raw`\b(?:lower|less|cheaper)\s+than\s+\$?(\d+(?:\.\d+)?)|\b(?:under|below)\s+\$?(\d+(?:\.\d+)?)`,
      amount: String.raw`\$\s?(\d[\d,]*(?:\.\d+)?)`,
    },
  },
};
