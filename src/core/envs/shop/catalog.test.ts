import { describe, expect, it } from "vitest";
import { buildCatalog, getCatalog, getProduct, isTestGoalProduct } from "./catalog";
import { BUTTON } from "./pages";
import { MAX_RESULTS, searchProducts } from "./search";

describe("catalog", () => {
  const catalog = getCatalog();

  it("has over 1,000 products with unique short ids", () => {
    expect(catalog.products.length).toBeGreaterThanOrEqual(1000);
    const ids = catalog.products.map((p) => p.asin);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^B0[0-9A-Z]{6}$/);
  });

  it("is the same catalog on every build (ids are stable)", () => {
    const again = buildCatalog();
    expect(again.products).toEqual(catalog.products);
    // Pinned: if these change, every stored task and trajectory silently points at other products.
    expect(catalog.products.length).toBe(1593);
    expect(catalog.products[0]?.asin).toBe("B00028T5");
    expect(catalog.products[0]?.productType).toBe("shampoo");
    expect(catalog.products[0]?.name).toBe("Amarine Quiet Tide Shampoo");
    expect(getProduct("b00028t5")?.asin).toBe("B00028T5");
  });

  it("has many products per type, varied in attributes, options and price", () => {
    const byType = new Map<string, number>();
    for (const p of catalog.products) byType.set(p.productType, (byType.get(p.productType) ?? 0) + 1);
    expect(byType.size).toBeGreaterThanOrEqual(70);
    expect(Math.min(...byType.values())).toBeGreaterThanOrEqual(16);
    expect(new Set(catalog.products.map((p) => p.category)).size).toBe(5);
    const shampoos = catalog.products.filter((p) => p.productType === "shampoo");
    expect(new Set(shampoos.map((p) => p.attributes.join("|"))).size).toBeGreaterThan(shampoos.length / 2);
    expect(new Set(shampoos.map((p) => p.price)).size).toBeGreaterThan(shampoos.length / 2);
  });

  it("keeps option values clickable: unique within a product and never a button name", () => {
    const buttons = new Set<string>(Object.values(BUTTON));
    for (const p of catalog.products) {
      const values = Object.values(p.options).flat();
      expect(new Set(values).size).toBe(values.length);
      for (const v of values) {
        expect(buttons.has(v)).toBe(false);
        expect(v).toBe(v.toLowerCase());
        expect(v).not.toMatch(/[[\]]/);
      }
    }
  });

  it("holds out about a fifth of products as test goal products", () => {
    const test = catalog.goalPool("test");
    const train = catalog.goalPool("train");
    expect(test.length + train.length).toBe(catalog.products.length);
    expect(test.length / catalog.products.length).toBeGreaterThan(0.12);
    expect(test.length / catalog.products.length).toBeLessThan(0.28);
    expect(test.every((p) => isTestGoalProduct(p.asin))).toBe(true);
    expect(train.some((p) => isTestGoalProduct(p.asin))).toBe(false);
  });
});

describe("search", () => {
  it("ranks a product first for its own title, returns at most 50", () => {
    const p = getCatalog().products[123];
    if (!p) throw new Error("catalog too small");
    const results = searchProducts(p.title);
    expect(results[0]).toBe(p.asin);
    expect(results.length).toBeLessThanOrEqual(MAX_RESULTS);
  });

  it("is deterministic, case- and space-insensitive", () => {
    expect(searchProducts("Sulfate free  SHAMPOO")).toEqual(searchProducts("sulfate free shampoo"));
    const top = searchProducts("sulfate free shampoo")
      .slice(0, 10)
      .map((id) => getProduct(id)?.productType);
    expect(top.filter((t) => t === "shampoo").length).toBeGreaterThanOrEqual(8);
  });

  it("finds nothing for stopwords only", () => {
    expect(searchProducts("i need the")).toEqual([]);
  });
});
