import { describe, expect, it } from "vitest";
import { getCatalog, getProduct, isTestGoalProduct } from "./catalog";
import { ShopEnvironment } from "./env";
import {
  checkShopGoal,
  makeShopGoal,
  ShopGoal,
  ShopGoalError,
  shopTask,
  shopTaskFromGoal,
  validateShopGoal,
} from "./goal";
import { shop } from "./index";
import { expertPolicy } from "./policies";
import { runEpisode } from "./testing";

describe("seed tasks", () => {
  it("are stable: the same (split, index) is the same task", () => {
    const a = shop.task("test", 3);
    const b = shop.task("test", 3);
    expect(b).toEqual(a);
    expect(a).toMatchObject({
      id: "shop:test:3",
      domain: "shop",
      split: "test",
      origin: "seed",
      generation: 0,
    });
    // Pinned so a change to the generator cannot silently rename the benchmark.
    expect(a.instruction).toBe(
      "i am looking for case friendly screen protector, and price lower than 40.00 dollars",
    );
    expect(ShopGoal.parse(a.goal).asin).toBe("B005GL5C");
  });

  it("differ between splits and draw goals from disjoint products", () => {
    const test = shop.tasks("test", 200);
    const train = shop.tasks("train", 200);
    expect(test[0]?.instruction).not.toBe(train[0]?.instruction);
    const testAsins = test.map((t) => ShopGoal.parse(t.goal).asin);
    const trainAsins = train.map((t) => ShopGoal.parse(t.goal).asin);
    expect(testAsins.every(isTestGoalProduct)).toBe(true);
    expect(trainAsins.some(isTestGoalProduct)).toBe(false);
    expect(new Set(test.map((t) => t.instruction)).size).toBeGreaterThan(190);
  });

  it("follow WebShop's goal recipe: 1-3 attributes, 0-2 options, a budget above the price", () => {
    const counts = { options: new Set<number>(), attributes: new Set<number>() };
    for (const t of shop.tasks("train", 300)) {
      const g = validateShopGoal(t.goal);
      const product = getProduct(g.asin);
      if (!product) throw new Error(`missing ${g.asin}`);
      counts.attributes.add(g.attributes.length);
      counts.options.add(Object.keys(g.options).length);
      expect(g.priceUpper).toBeGreaterThanOrEqual(product.price);
      expect(g.priceUpper % 10).toBe(0);
      expect(t.instruction).toContain(`price lower than ${g.priceUpper.toFixed(2)} dollars`);
      expect(t.instruction).toContain(g.productType);
      for (const a of g.attributes) expect(t.instruction).toContain(a);
      for (const v of Object.values(g.options)) expect(t.instruction).toContain(v);
    }
    expect([...counts.attributes].sort()).toEqual([1, 2, 3]);
    expect([...counts.options].sort()).toEqual([0, 1, 2]);
  });

  it("rejects a bad index", () => {
    expect(() => shopTask("test", -1)).toThrow(/natural number/);
  });
});

describe("generated goals", () => {
  const seed = validateShopGoal(shop.task("test", 7).goal);
  const product = getProduct(seed.asin);
  if (!product) throw new Error("goal product missing");

  it("rejects a nonexistent option value with a clear error", () => {
    const [type] = Object.keys(product.options);
    if (type === undefined) throw new Error("goal product has no options");
    const bad = { ...seed, options: { [type]: "gold plated unicorn" } };
    const check = checkShopGoal(bad);
    expect(check.ok).toBe(false);
    expect(() => validateShopGoal(bad)).toThrow(ShopGoalError);
    expect(() => validateShopGoal(bad)).toThrow(
      new RegExp(`goal\\.options\\.${type}: "gold plated unicorn" is not offered by ${product.asin}`),
    );
    expect(() => shopTaskFromGoal(bad, { id: "shop:gen:x", split: "train" })).toThrow(/is not offered/);
  });

  it("rejects an unknown option type, product, attribute or an impossible budget", () => {
    expect(() => validateShopGoal({ ...seed, options: { flux: "high" } })).toThrow(
      /has no option type "flux"/,
    );
    expect(() => validateShopGoal({ ...seed, asin: "B0NOPE00" })).toThrow(
      /not a product in the shop catalog/,
    );
    expect(() => validateShopGoal({ ...seed, attributes: ["radioactive glow"] })).toThrow(
      /goal\.attributes\[0\]/,
    );
    expect(() => validateShopGoal({ ...seed, priceUpper: product.price / 2 })).toThrow(/below the price/);
    expect(() => validateShopGoal({ ...seed, priceUpper: "cheap" })).toThrow(/goal\.priceUpper/);
  });

  it("accepts a variation of the same product, and the expert solves it", async () => {
    const [type, values] = Object.entries(product.options)[0] ?? [];
    if (type === undefined || values === undefined) throw new Error("goal product has no options");
    const variation = {
      ...seed,
      attributes: product.attributes.slice(-2),
      options: { [type]: values[values.length - 1] ?? "" },
      priceUpper: seed.priceUpper + 10,
    };
    const task = shopTaskFromGoal(variation, {
      id: "shop:test:7/v1",
      split: "test",
      origin: "generated",
      parentId: "shop:test:7",
      generation: 1,
    });
    expect(task).toMatchObject({
      origin: "generated",
      parentId: "shop:test:7",
      generation: 1,
      domain: "shop",
    });
    const episode = await runEpisode(new ShopEnvironment(), expertPolicy(), task);
    expect(episode.last.reward).toBe(1);
    expect(episode.last.success).toBe(true);
  });

  it("accepts a goal moved to another product through makeShopGoal", async () => {
    const other = getCatalog().products.find((p) => p.productType === "men's hoodie" && p.options.color);
    if (!other) throw new Error("no hoodie in the catalog");
    const goal = makeShopGoal({
      asin: other.asin,
      attributes: [other.attributes[0] ?? ""],
      options: { color: other.options.color?.[0] ?? "" },
      priceUpper: Math.ceil(other.price) + 5,
    });
    expect(goal.productType).toBe("men's hoodie");
    const task = shopTaskFromGoal(goal, {
      id: "shop:train:0/v2",
      split: "train",
      parentId: "shop:train:0",
      generation: 1,
    });
    expect(task.instruction).toContain("men's hoodie");
    const episode = await runEpisode(new ShopEnvironment(), expertPolicy(), task);
    expect(episode.last.success).toBe(true);
  });
});
