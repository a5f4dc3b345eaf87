import { checkShopGoal, isTestGoalProduct, type ShopGoal, shopTaskFromGoal } from "../envs/shop";
import type { Task } from "../types";
import type { CurriculumGoals } from "./domainGoals";
import { variationMeta } from "./generator";

/**
 * Shop goals for the curriculum: the shop's own check (the product exists and itself meets every constraint, so
 * the task can score 1), and no goal product from the held-out fifth of the catalog that test goals come from.
 */
export const shopGoals: CurriculumGoals<ShopGoal> = {
  domain: "shop",
  check(input) {
    const check = checkShopGoal(input);
    if (!check.ok) return { ok: false, errors: check.errors };
    if (isTestGoalProduct(check.goal.asin)) {
      return {
        ok: false,
        errors: [`goal.asin: ${check.goal.asin} is held out for test goals; pick another product`],
      };
    }
    return check;
  },
  parentGoal(parent) {
    const check = checkShopGoal(parent.goal);
    if (!check.ok) throw new Error(`shop task ${parent.id} has no valid goal: ${check.errors.join("; ")}`);
    return check.goal;
  },
  toTask(goal: ShopGoal, parent: Task) {
    return shopTaskFromGoal(goal, variationMeta(parent, goal));
  },
};
