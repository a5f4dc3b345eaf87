import { describe, expect, it } from "vitest";
import type { Observation, Task } from "../../types";
import { getProduct } from "./catalog";
import { MAX_STEPS, parseShopAction, replay, ShopEnvironment } from "./env";
import { ShopGoal, shopTask } from "./goal";
import { pageKindOf, SEARCH_TEMPLATE } from "./pages";
import { expertPolicy } from "./policies";
import { shopReward } from "./reward";
import { runEpisode } from "./testing";
import { webshopScore } from "./webshopRule";
import { WEBSHOP_INFO_KEY, webshopVerdictOf } from "./webshopVerdict";

const task: Task = shopTask("test", 3);
const goal = ShopGoal.parse(task.goal);
const goalId = goal.asin.toLowerCase();

async function fresh(): Promise<{ env: ShopEnvironment; obs: Observation }> {
  const env = new ShopEnvironment();
  return { env, obs: await env.reset(task) };
}

/** A product query that surely lists the goal product on page 1. */
const titleQuery = `search[${getProduct(goal.asin)?.title}]`;

describe("shop pages", () => {
  it("starts on the search page, which only admits the search template", async () => {
    const { obs } = await fresh();
    expect(obs.text).toBe(`WebShop [SEP] Instruction: [SEP] ${task.instruction} [SEP] Search`);
    expect(obs.actions).toEqual([SEARCH_TEMPLATE]);
    expect(pageKindOf(obs)).toBe("search");
  });

  it("lists 10 results per page, compactly, and pages through at most 50", async () => {
    const { env } = await fresh();
    const r = await env.step("search[sulfate free shampoo]");
    expect(r.valid).toBe(true);
    expect(pageKindOf(r.observation)).toBe("results");
    expect(r.observation.text).toContain("Page 1 (Total results: 50)");
    expect(r.observation.text.length).toBeLessThanOrEqual(1500);
    const items = (r.observation.actions ?? []).filter((a) => /^click\[b0/.test(a));
    expect(items).toHaveLength(10);
    expect(r.observation.actions).toContain("click[next >]");
    expect(r.observation.actions).not.toContain("click[< prev]");
    let last = r;
    for (let page = 2; page <= 5; page++) last = await env.step("click[next >]");
    expect(last.observation.text).toContain("Page 5 (Total results: 50)");
    expect(last.observation.actions).not.toContain("click[next >]");
    const back = await env.step("click[< prev]");
    expect(back.observation.text).toContain("Page 4 (Total results: 50)");
  });

  it("shows the item with its options, description and features, and remembers selections", async () => {
    const { env } = await fresh();
    await env.step(titleQuery);
    const item = await env.step(`click[${goalId}]`);
    expect(pageKindOf(item.observation)).toBe("item");
    const product = getProduct(goal.asin);
    if (!product) throw new Error("goal product missing");
    for (const values of Object.values(product.options)) {
      for (const v of values) expect(item.observation.actions).toContain(`click[${v}]`);
    }
    expect(item.observation.text).toContain(`Price: $${product.price.toFixed(2)}`);
    const [type, values] = Object.entries(product.options)[0] ?? [];
    const value = values?.[0];
    if (type === undefined || value === undefined) throw new Error("goal product has no options");
    const chosen = await env.step(`click[${value}]`);
    expect(chosen.observation.text).toContain(`Selected: ${type}: ${value}`);
    const desc = await env.step("click[description]");
    expect(pageKindOf(desc.observation)).toBe("description");
    expect(desc.observation.text).toContain(product.description);
    expect(desc.observation.actions).toEqual(["click[back to search]", "click[< prev]"]);
    const backToItem = await env.step("click[< prev]");
    expect(backToItem.observation).toEqual(chosen.observation);
    const feats = await env.step("click[features]");
    expect(pageKindOf(feats.observation)).toBe("features");
    expect(feats.observation.text).toContain(product.features[0] ?? "");
    await env.step("click[< prev]");
    const results = await env.step("click[< prev]");
    expect(pageKindOf(results.observation)).toBe("results");
    const search = await env.step("click[back to search]");
    expect(pageKindOf(search.observation)).toBe("search");
  });

  it("matches click targets case-insensitively", async () => {
    const { env } = await fresh();
    await env.step(`Search[ ${getProduct(goal.asin)?.title.toUpperCase()} ]`);
    const item = await env.step(`CLICK[${goal.asin}]`);
    expect(item.valid).toBe(true);
    expect(pageKindOf(item.observation)).toBe("item");
    expect((await env.step("click[Buy Now]")).done).toBe(true);
  });
});

describe("buy now", () => {
  it("ends the episode with WebShop's reward for the chosen product and options", async () => {
    const { env } = await fresh();
    await env.step(titleQuery);
    await env.step(`click[${goalId}]`);
    const r = await env.step("click[buy now]");
    const product = getProduct(goal.asin);
    if (!product) throw new Error("goal product missing");
    expect(r.done).toBe(true);
    expect(r.valid).toBe(true);
    expect(r.reward).toBe(shopReward(goal, product, {}).reward);
    expect(r.success).toBe(Object.keys(goal.options).length === 0);
    expect(r.observation.text).toContain("Thank you for shopping with us!");
    const after = await env.step("click[back to search]");
    expect(after).toMatchObject({ done: true, valid: false, reward: 0, success: false });
  });

  it("reports WebShop's own rule beside the strict reward, in the step's info", async () => {
    const { env } = await fresh();
    await env.step(titleQuery);
    await env.step(`click[${goalId}]`);
    const [type, value] = Object.entries(goal.options)[0] ?? [];
    if (type !== undefined && value !== undefined) await env.step(`click[${value}]`);
    const r = await env.step("click[buy now]");
    const product = getProduct(goal.asin);
    if (!product) throw new Error("goal product missing");
    const chosen = type !== undefined && value !== undefined ? { [type]: value } : {};
    expect(r.info?.[WEBSHOP_INFO_KEY]).toEqual(webshopScore(goal, product, chosen));
    expect(webshopVerdictOf(r.info)).toEqual({
      reward: webshopScore(goal, product, chosen).reward,
      success: webshopScore(goal, product, chosen).success,
    });
    // The strict reward is what the environment returns, whatever WebShop's rule says.
    expect(r.reward).toBe(shopReward(goal, product, chosen).reward);
  });
});

describe("invalid actions", () => {
  const cases: [string, string[], string][] = [
    ["malformed text", [], "buy the shampoo"],
    ["empty search", [], "search[   ]"],
    ["the search template itself", [], SEARCH_TEMPLATE],
    ["a click on the search page", [], "click[buy now]"],
    ["a search on the results page", ["search[shampoo]"], "search[conditioner]"],
    ["an unknown item id", ["search[shampoo]"], "click[b0zzzzzz]"],
    ["prev on page 1", ["search[shampoo]"], "click[< prev]"],
    ["an option on the results page", ["search[shampoo]"], "click[lavender]"],
    ["an option the item lacks", [titleQuery, `click[${goalId}]`], "click[not an option]"],
  ];
  for (const [name, before, action] of cases) {
    it(`${name}: unchanged state, reward 0, valid false, still counts as a step`, async () => {
      const { env, obs: start } = await fresh();
      let obs = start;
      for (const a of before) obs = (await env.step(a)).observation;
      const r = await env.step(action);
      expect(r.valid).toBe(false);
      expect(r.reward).toBe(0);
      expect(r.done).toBe(false);
      expect(r.observation).toEqual(obs);
      expect(r.info?.step).toBe(before.length + 1);
      expect(typeof r.info?.error).toBe("string");
    });
  }

  it("parses only search[...] and click[...]", () => {
    expect(parseShopAction("click[ Next  > ]")).toEqual({ kind: "click", target: "next >" });
    expect(parseShopAction("search[a [b] c]")).toEqual({ kind: "search", query: "a [b] c" });
    expect(parseShopAction("click next")).toBeNull();
    expect(parseShopAction("click[]")).toBeNull();
  });
});

describe("step limit", () => {
  it("is WebShop's 15 steps", () => {
    expect(MAX_STEPS).toBe(15);
  });

  it(`ends the episode at step ${MAX_STEPS} with reward 0 unless it bought`, async () => {
    const { env } = await fresh();
    for (let i = 1; i < MAX_STEPS; i++) {
      const r = await env.step(i % 2 === 1 ? "search[shampoo]" : "click[back to search]");
      expect(r.done).toBe(false);
    }
    const last = await env.step("search[shampoo]");
    expect(last).toMatchObject({ done: true, reward: 0, success: false, valid: true });
    expect(last.info?.truncated).toBe(true);
    // Nothing bought: WebShop scores 0 too, and says so, so every real episode ends with its verdict.
    expect(webshopVerdictOf(last.info)).toEqual({ reward: 0, success: false });
  });

  it("an invalid 15th step also ends it", async () => {
    const actions = Array.from({ length: MAX_STEPS }, () => "nonsense");
    const results = await replay(task, actions);
    expect(results.slice(0, -1).every((r) => !r.done)).toBe(true);
    expect(results.at(-1)).toMatchObject({ done: true, valid: false, reward: 0 });
  });

  it("a purchase on the 15th step is scored", async () => {
    const padding = Array.from({ length: MAX_STEPS - 3 }, () => "nonsense");
    const results = await replay(task, [...padding, titleQuery, `click[${goalId}]`, "click[buy now]"]);
    const last = results.at(-1);
    expect(results).toHaveLength(MAX_STEPS);
    expect(last?.done).toBe(true);
    expect(last?.valid).toBe(true);
    expect(last?.reward).toBeGreaterThan(0);
  });
});

describe("determinism and replay", () => {
  it("gives the same observations for the same task and actions", async () => {
    const actions = [
      "search[lavender shampoo]",
      "click[next >]",
      "click[back to search]",
      titleQuery,
      `click[${goalId}]`,
    ];
    const a = await replay(task, actions);
    const b = await replay(shopTask("test", 3), actions);
    expect(a).toEqual(b);
    const first = await new ShopEnvironment().reset(task);
    expect(await new ShopEnvironment().reset(shopTask("test", 3))).toEqual(first);
  });

  it("replays a recorded expert episode step for step", async () => {
    const env = new ShopEnvironment();
    const episode = await runEpisode(env, expertPolicy(), task);
    const replayed = await replay(
      task,
      episode.steps.map((s) => s.action),
    );
    expect(replayed.map((r) => r.observation)).toEqual(episode.steps.map((s) => s.next));
    expect(replayed.map((r) => [r.reward, r.done, r.success, r.valid])).toEqual(
      episode.steps.map((s) => [s.reward, s.done, s.success, s.valid]),
    );
    expect(replayed.at(-1)).toEqual(episode.last);
  });

  it("keeps environments independent", async () => {
    const a = new ShopEnvironment();
    const b = new ShopEnvironment();
    await a.reset(task);
    await b.reset(shopTask("train", 0));
    await a.step("search[shampoo]");
    const bObs = await b.step("click[buy now]");
    expect(bObs.valid).toBe(false);
    expect(pageKindOf(bObs.observation)).toBe("search");
  });

  it("refuses to step before reset and rejects a malformed goal", async () => {
    await expect(new ShopEnvironment().step("search[x]")).rejects.toThrow(/reset/);
    await expect(new ShopEnvironment().reset({ ...task, goal: { asin: 3 } })).rejects.toThrow(
      /not a ShopGoal/,
    );
  });
});
