/**
 * How an episode carries WebShop's verdict beside the strict one: the shop's last step (Buy Now, or the step
 * that ran out of steps) puts it in StepResult.info under WEBSHOP_INFO_KEY. Readers such as evaluatePolicy
 * take it from there without knowing the shop, and an environment that does not report it (household, the
 * synthetic environment) simply has none.
 */

export const WEBSHOP_INFO_KEY = "webshop";

/** What every reader may rely on; at a purchase the info holds the whole WebshopScore (webshopRule.ts). */
export interface WebshopVerdict {
  reward: number;
  success: boolean;
}

/** An episode that ends without buying scores 0 in WebShop, whose reward comes only at Buy Now. */
export const NO_PURCHASE_VERDICT: Readonly<WebshopVerdict> = { reward: 0, success: false };

/** The verdict a step's info carries, or undefined when it carries none (or something else under the key). */
export function webshopVerdictOf(
  info: Readonly<Record<string, unknown>> | undefined,
): WebshopVerdict | undefined {
  const value: unknown = info?.[WEBSHOP_INFO_KEY];
  if (typeof value !== "object" || value === null) return undefined;
  const { reward, success } = value as Record<string, unknown>;
  if (typeof reward !== "number" || !Number.isFinite(reward) || typeof success !== "boolean")
    return undefined;
  return { reward, success };
}
