import { describe, expect, it } from "vitest";
import { isShopSuccess, type PurchasedProduct, type RewardGoal, shopReward, typeReward } from "./reward";
import { normalizeOption, tokenSetRatio } from "./text";

const goal: RewardGoal = {
  name: "Aveline Hydra Repair Shampoo",
  productType: "shampoo",
  category: "beauty & personal care",
  subcategory: "hair care",
  attributes: ["sulfate free", "long lasting"],
  options: { size: "8.4 fl oz (pack of 1)", scent: "lavender" },
  priceUpper: 30,
};

const shampoo: PurchasedProduct = {
  name: "Aveline Hydra Repair Shampoo",
  title: "Aveline Hydra Repair Shampoo, Sulfate Free & Long Lasting",
  description: "A customer favourite. Highlights: sulfate free and long lasting.",
  features: ["SULFATE FREE - sulfate free without compromise", "LONG LASTING - long lasting, as promised"],
  attributes: ["sulfate free", "long lasting", "paraben free"],
  productType: "shampoo",
  category: "beauty & personal care",
  subcategory: "hair care",
  price: 20,
};

const goalOptions = { size: "8.4 fl oz (pack of 1)", scent: "lavender" };

describe("shopReward (WebShop's formula)", () => {
  it("scores a full match 1", () => {
    const r = shopReward(goal, shampoo, goalOptions);
    expect(r.reward).toBe(1);
    expect(isShopSuccess(r.reward)).toBe(true);
    expect(r).toMatchObject({ rType: 1, priceOk: true, matchedAttributes: goal.attributes });
  });

  it("loses one of five parts for a missing attribute", () => {
    const noLongLasting: PurchasedProduct = {
      ...shampoo,
      title: "Aveline Hydra Repair Shampoo, Sulfate Free",
      description: "Highlights: sulfate free.",
      features: ["SULFATE FREE - sulfate free without compromise"],
      attributes: ["sulfate free", "paraben free"],
    };
    const r = shopReward(goal, noLongLasting, goalOptions);
    expect(r.matchedAttributes).toEqual(["sulfate free"]);
    expect(r.reward).toBeCloseTo(4 / 5, 12);
    expect(isShopSuccess(r.reward)).toBe(false);
  });

  it("loses one part for a wrong option, and for an unselected one", () => {
    expect(shopReward(goal, shampoo, { ...goalOptions, scent: "coconut" }).reward).toBeCloseTo(4 / 5, 12);
    expect(shopReward(goal, shampoo, { size: "8.4 fl oz (pack of 1)" }).reward).toBeCloseTo(4 / 5, 12);
    // WebShop's token_set_ratio would call these equal; a different pack count is a different option here.
    expect(shopReward(goal, shampoo, { ...goalOptions, size: "8.4 fl oz (pack of 2)" }).reward).toBeCloseTo(
      4 / 5,
      12,
    );
    expect(shopReward(goal, shampoo, {}).reward).toBeCloseTo(3 / 5, 12);
  });

  it("loses the price part when over budget", () => {
    const r = shopReward(goal, { ...shampoo, price: 30.49 }, goalOptions);
    expect(r.priceOk).toBe(false);
    expect(r.reward).toBeCloseTo(4 / 5, 12);
    // At the budget exactly is still within it ("lower than" is <= in WebShop).
    expect(shopReward(goal, { ...shampoo, price: 30 }, goalOptions).reward).toBe(1);
  });

  it("zeroes a product of another type whose name shares no noun (r_type 0)", () => {
    const conditioner: PurchasedProduct = {
      ...shampoo,
      name: "Lumera Silk Touch Conditioner",
      title: "Lumera Silk Touch Conditioner, Sulfate Free & Long Lasting",
      productType: "conditioner",
    };
    const t = typeReward(goal, conditioner);
    expect(t).toEqual({ rType: 0, queryMatch: false, categoryMatch: true, titleScore: 0 });
    expect(shopReward(goal, conditioner, goalOptions).reward).toBe(0);
  });

  it("halves a product from another category sharing one noun in five (r_type 0.5)", () => {
    const coffeeGoal: RewardGoal = {
      name: "Harvest Lane Select Ground Coffee",
      productType: "ground coffee",
      category: "grocery & gourmet food",
      subcategory: "beverages",
      attributes: ["fair trade"],
      options: {},
      priceUpper: 100,
    };
    const table: PurchasedProduct = {
      name: "Linden Loft Coffee Table",
      title: "Linden Loft Coffee Table, Solid Wood",
      description: "Highlights: solid wood.",
      features: ["SOLID WOOD - solid wood without compromise"],
      attributes: ["solid wood"],
      productType: "coffee table",
      category: "home & kitchen",
      subcategory: "furniture",
      price: 80,
    };
    expect(typeReward(coffeeGoal, table)).toEqual({
      rType: 0.5,
      queryMatch: false,
      categoryMatch: false,
      titleScore: 0.2,
    });
    // 0.5 × (0 attributes + price) / (1 attribute + 0 options + 1)
    expect(shopReward(coffeeGoal, table, {}).reward).toBeCloseTo(0.25, 12);
  });

  it("gives full r_type to the same product type from another brand", () => {
    const other: PurchasedProduct = { ...shampoo, name: "Lumera Silk Touch Shampoo" };
    expect(typeReward(goal, other)).toMatchObject({ rType: 1, queryMatch: true, titleScore: 0.25 });
    expect(shopReward(goal, other, goalOptions).reward).toBe(1);
  });

  it("matches attributes fuzzily, as WebShop does", () => {
    const shirtGoal: RewardGoal = { ...goal, attributes: ["machine wash"], options: {} };
    const washable = {
      ...shampoo,
      attributes: ["machine washable"],
      title: "x",
      description: "",
      features: [],
    };
    expect(shopReward(shirtGoal, washable, {}).matchedAttributes).toEqual(["machine wash"]);
    // Not in the attribute list but stated in a bullet point.
    const inFeatures = {
      ...shampoo,
      attributes: [],
      title: "x",
      description: "",
      features: ["MACHINE WASH - yes"],
    };
    expect(shopReward(shirtGoal, inFeatures, {}).reward).toBe(1);
    const neither = { ...shampoo, attributes: ["hand wash"], title: "x", description: "", features: [] };
    expect(shopReward(shirtGoal, neither, {}).reward).toBeCloseTo(1 / 2, 12);
  });
});

describe("text matching", () => {
  it("token_set_ratio: subsets score 100, near misses below WebShop's 85", () => {
    expect(tokenSetRatio("long lasting", "long lasting fragrance")).toBe(100);
    expect(tokenSetRatio("paraben free", "sulfate free")).toBeLessThan(85);
    expect(tokenSetRatio("living room", "dining room")).toBeLessThan(85);
    expect(tokenSetRatio("machine wash", "machine washable")).toBeGreaterThan(85);
  });

  it("option values fold spelling and units, not quantities", () => {
    expect(normalizeOption("Heather Grey")).toBe(normalizeOption("heather gray"));
    expect(normalizeOption("12 Ounce (Pack of 3)")).toBe(normalizeOption("12 oz (pack of 3)"));
    expect(normalizeOption("large")).not.toBe(normalizeOption("x-large"));
  });
});
