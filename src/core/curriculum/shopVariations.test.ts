import { describe, expect, it } from "vitest";
import { getProduct, isTestGoalProduct, ShopEnvironment, ShopGoal, shop } from "../envs/shop";
import { runEpisode } from "../envs/shop/testing";
import { Rng } from "../util/random";
import { embeddedTaskGenerator } from "./embedded";
import { canonicalJson, variationId } from "./generator";
import { shopGoals } from "./shopGoals";
import { SHOP_OPERATORS, shopTaskGenerator } from "./shopVariations";

const parents = shop.tasks("train", 30);

describe("embedded shop variations", () => {
  it("are valid, keep their lineage and are scored 1 by the real shop when the expert plays them (30 seeds)", async () => {
    const generator = shopTaskGenerator();
    const expert = shop.expert();
    let total = 0;
    for (const parent of parents) {
      const variations = await generator.vary(parent, 3, new Rng(`shop-vary:${parent.id}`));
      expect(variations.length, parent.id).toBe(3);
      const goals = new Set([canonicalJson(parent.goal)]);
      for (const task of variations) {
        const check = shopGoals.check(task.goal);
        expect(check.ok, `${task.id}: ${check.ok ? "" : check.errors.join("; ")}`).toBe(true);
        const goal = ShopGoal.parse(task.goal);
        expect(isTestGoalProduct(goal.asin)).toBe(false);
        expect(task).toMatchObject({
          domain: "shop",
          split: "train",
          origin: "generated",
          parentId: parent.id,
          generation: 1,
          id: variationId(parent, goal),
        });
        expect(task.id.startsWith(`${parent.id}~v`)).toBe(true);
        expect(goals.has(canonicalJson(goal)), `${task.id} repeats a goal`).toBe(false);
        goals.add(canonicalJson(goal));
        // WebShop's recipe still holds, and the instruction says everything the goal asks for.
        expect(goal.attributes.length).toBeGreaterThanOrEqual(1);
        expect(goal.attributes.length).toBeLessThanOrEqual(3);
        expect(Object.keys(goal.options).length).toBeLessThanOrEqual(2);
        expect(goal.priceUpper % 10).toBe(0);
        expect(goal.priceUpper).toBeGreaterThanOrEqual(getProduct(goal.asin)?.price ?? Infinity);
        for (const a of goal.attributes) expect(task.instruction).toContain(a);
        for (const v of Object.values(goal.options)) expect(task.instruction).toContain(v);

        const { last } = await runEpisode(new ShopEnvironment(), expert, task);
        expect(last.reward, `${task.id}: ${task.instruction}`).toBe(1);
        expect(last.success).toBe(true);
        total++;
      }
    }
    expect(total).toBe(90);
    expect(generator.rejections).toEqual([]);
  });

  it("uses every kind of edit across seeds", async () => {
    const kinds = new Set<string>();
    for (const parent of parents.slice(0, 20)) {
      const before = ShopGoal.parse(parent.goal);
      for (const task of await shopTaskGenerator().vary(parent, 4, new Rng(parent.id))) {
        const after = ShopGoal.parse(task.goal);
        if (after.asin !== before.asin) kinds.add("product");
        else if (after.priceUpper < before.priceUpper) kinds.add("tighter budget");
        else if (after.priceUpper > before.priceUpper) kinds.add("looser budget");
        else if (after.attributes.length > before.attributes.length) kinds.add("attribute more");
        else if (after.attributes.length < before.attributes.length) kinds.add("attribute less");
        else if (Object.keys(after.options).length > Object.keys(before.options).length)
          kinds.add("option more");
        else if (Object.keys(after.options).length < Object.keys(before.options).length)
          kinds.add("option less");
        else kinds.add("option value");
      }
    }
    expect(kinds.size).toBe(SHOP_OPERATORS.length);
  });

  it("keeps the parent's product type and the product's action types", async () => {
    const parent = parents[0]!;
    const parentGoal = ShopGoal.parse(parent.goal);
    for (const task of await embeddedTaskGenerator("shop").vary(parent, 6, new Rng(1))) {
      expect(ShopGoal.parse(task.goal).productType).toBe(parentGoal.productType);
    }
  });

  it("is deterministic under a seed and varies with it", async () => {
    const parent = parents[5]!;
    const a = await shopTaskGenerator().vary(parent, 4, new Rng(42));
    const b = await shopTaskGenerator().vary(parent, 4, new Rng(42));
    const c = await shopTaskGenerator().vary(parent, 4, new Rng(43));
    expect(b).toEqual(a);
    expect(c.map((t) => t.id)).not.toEqual(a.map((t) => t.id));
  });

  it("varies variations one generation further, and ids stay stable for the same goal", async () => {
    const parent = parents[2]!;
    const [child] = await shopTaskGenerator().vary(parent, 1, new Rng(7));
    if (!child) throw new Error("no variation");
    const [grandchild] = await shopTaskGenerator().vary(child, 1, new Rng(8));
    expect(grandchild).toMatchObject({ parentId: child.id, generation: 2, origin: "generated" });
    expect(grandchild?.id.startsWith(`${child.id}~v`)).toBe(true);
    expect(variationId(parent, child.goal)).toBe(child.id);
  });

  it("refuses held-out test tasks and tasks of another domain", async () => {
    await expect(shopTaskGenerator().vary(shop.task("test", 0), 2, new Rng(1))).rejects.toThrow(
      /held-out test/,
    );
    const foreign = { ...parents[0]!, domain: "household" };
    await expect(shopTaskGenerator().vary(foreign, 2, new Rng(1))).rejects.toThrow(/belongs to domain/);
  });
});
