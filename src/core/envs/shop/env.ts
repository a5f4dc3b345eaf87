/**
 * The shop environment: WebShop's page machine (search -> results -> item -> description/features -> buy now)
 * over the generated catalog. Deterministic given the task, so any episode replays from its action history.
 */
import type { Environment, Observation, StepResult, Task } from "../../types";
import { getProduct } from "./catalog";
import { SHOP_DOMAIN, ShopGoal } from "./goal";
import { BUTTON, clickables, renderPage, type ShopPage } from "./pages";
import { isShopSuccess, shopReward } from "./reward";
import { searchProducts } from "./search";
import { squash, tokens } from "./text";
import { webshopScore } from "./webshopRule";
import { NO_PURCHASE_VERDICT, WEBSHOP_INFO_KEY } from "./webshopVerdict";

/** Episode length cap, as in WebShop agent evaluations: the 15th step ends the episode. */
export const MAX_STEPS = 15;

export type ShopAction = { kind: "search"; query: string } | { kind: "click"; target: string };

/** "search[q]" or "click[element]", case-insensitive; null when the text is neither. */
export function parseShopAction(text: string): ShopAction | null {
  const m = /^\s*(search|click)\s*\[([\s\S]*)\]\s*$/i.exec(text);
  if (!m) return null;
  const verb = (m[1] ?? "").toLowerCase();
  const arg = squash(m[2] ?? "");
  if (arg.length === 0) return null;
  return verb === "search" ? { kind: "search", query: arg } : { kind: "click", target: arg };
}

type Transition =
  | { valid: false; error: string }
  | { valid: true; page: ShopPage; selected: Record<string, string> }
  | { valid: true; buy: { asin: string; options: Record<string, string> } };

export class ShopEnvironment implements Environment {
  readonly domain = SHOP_DOMAIN;
  private task: Task | undefined;
  private goal: ShopGoal | undefined;
  private page: ShopPage = { kind: "search" };
  private selected: Record<string, string> = {};
  private steps = 0;
  private done = false;
  private current: Observation = { text: "", actions: [] };

  async reset(task: Task): Promise<Observation> {
    if (task.goal === undefined) {
      this.goal = undefined;
    } else {
      const parsed = ShopGoal.safeParse(task.goal);
      if (!parsed.success) {
        const why = parsed.error.issues
          .map((i) => `${i.path.map(String).join(".")}: ${i.message}`)
          .join("; ");
        throw new Error(`shop task ${task.id}: goal is not a ShopGoal (${why})`);
      }
      this.goal = parsed.data;
    }
    this.task = task;
    this.page = { kind: "search" };
    this.selected = {};
    this.steps = 0;
    this.done = false;
    this.current = renderPage(this.page, task.instruction, this.selected);
    return this.current;
  }

  async step(action: string): Promise<StepResult> {
    const task = this.task;
    if (!task) throw new Error("shop environment: call reset(task) before step()");
    if (this.done) {
      return {
        observation: this.current,
        reward: 0,
        done: true,
        success: false,
        valid: false,
        info: { error: "episode is over" },
      };
    }
    this.steps += 1;
    const t = this.transition(action);
    if (t.valid && "buy" in t) return this.purchase(task, t.buy.asin, t.buy.options);
    if (t.valid) {
      this.page = t.page;
      this.selected = t.selected;
      this.current = renderPage(this.page, task.instruction, this.selected);
    }
    const truncated = this.steps >= MAX_STEPS;
    if (truncated) this.done = true;
    const info: Record<string, unknown> = { page: this.page.kind, step: this.steps };
    if (!t.valid) info.error = t.error;
    if (truncated) info.truncated = true;
    // WebShop's verdict on an episode that never bought: 0, as in WebShop (see webshopVerdict.ts).
    if (truncated && this.goal) info[WEBSHOP_INFO_KEY] = { ...NO_PURCHASE_VERDICT };
    return { observation: this.current, reward: 0, done: truncated, success: false, valid: t.valid, info };
  }

  private purchase(task: Task, asin: string, options: Record<string, string>): StepResult {
    this.done = true;
    const product = getProduct(asin);
    if (!product) throw new Error(`shop environment: page refers to unknown product ${asin}`);
    const breakdown = this.goal ? shopReward(this.goal, product, options) : undefined;
    const reward = breakdown?.reward ?? 0;
    const chosen = Object.entries(options).map(([k, v]) => `${k}: ${v}`);
    this.current = {
      text: [
        "Thank you for shopping with us!",
        `Purchased: ${product.title}`,
        `Price: $${product.price.toFixed(2)}`,
        `Options: ${chosen.length > 0 ? chosen.join("; ") : "none"}`,
        "Your score (min 0.0, max 1.0)",
        reward.toFixed(2),
      ].join(" [SEP] "),
      actions: [],
    };
    const info: Record<string, unknown> = { page: "done", step: this.steps, asin, options, breakdown };
    // WebShop's own rule beside the strict one, which stays the reward (webshopRule.ts says how they differ).
    if (this.goal) info[WEBSHOP_INFO_KEY] = webshopScore(this.goal, product, options);
    if (!this.goal) info.error = `task ${task.id} has no goal to score against`;
    return {
      observation: this.current,
      reward,
      done: true,
      success: isShopSuccess(reward),
      valid: true,
      info,
    };
  }

  private transition(text: string): Transition {
    const action = parseShopAction(text);
    if (!action)
      return {
        valid: false,
        error: `not an action: expected search[query] or click[element], got "${text}"`,
      };
    const page = this.page;
    if (action.kind === "search") {
      if (page.kind !== "search")
        return { valid: false, error: "search is only possible on the search page" };
      if (tokens(action.query).length === 0) return { valid: false, error: "empty search query" };
      return {
        valid: true,
        page: { kind: "results", query: action.query, page: 1, results: searchProducts(action.query) },
        selected: {},
      };
    }
    const target = action.target;
    if (!clickables(page).includes(target)) {
      return { valid: false, error: `"${target}" is not clickable on the ${page.kind} page` };
    }
    if (target === BUTTON.backToSearch) return { valid: true, page: { kind: "search" }, selected: {} };
    switch (page.kind) {
      case "search":
        return { valid: false, error: "nothing to click on the search page" };
      case "results": {
        const { query, results } = page;
        if (target === BUTTON.next)
          return { valid: true, page: { ...page, page: page.page + 1 }, selected: {} };
        if (target === BUTTON.prev)
          return { valid: true, page: { ...page, page: page.page - 1 }, selected: {} };
        // A new item page starts with nothing selected, as in WebShop.
        return {
          valid: true,
          page: { kind: "item", query, page: page.page, results, asin: target.toUpperCase() },
          selected: {},
        };
      }
      case "item": {
        const { query, results } = page;
        if (target === BUTTON.prev)
          return { valid: true, page: { kind: "results", query, page: page.page, results }, selected: {} };
        if (target === BUTTON.description || target === BUTTON.features) {
          return { valid: true, page: { ...page, kind: target }, selected: this.selected };
        }
        if (target === BUTTON.buyNow)
          return { valid: true, buy: { asin: page.asin, options: { ...this.selected } } };
        const product = getProduct(page.asin);
        const type =
          product && Object.keys(product.options).find((k) => product.options[k]?.includes(target));
        if (!type) return { valid: false, error: `"${target}" is not an option of ${page.asin}` };
        return { valid: true, page, selected: { ...this.selected, [type]: target } };
      }
      case "description":
      case "features":
        return { valid: true, page: { ...page, kind: "item" }, selected: this.selected };
    }
  }
}

/** Reset on `task`, then step through `actions`: the real environment's answer to a recorded history. */
export async function replay(task: Task, actions: readonly string[]): Promise<StepResult[]> {
  const env = new ShopEnvironment();
  await env.reset(task);
  const out: StepResult[] = [];
  for (const a of actions) out.push(await env.step(a));
  return out;
}
