import { describe, expect, it } from "vitest";
import { getRealDomain } from "../envs/registry";
import type { Task } from "../types";
import { Rng } from "../util/random";
import { blindTaskGenerator } from "./blindVariations";

const task = (id: string, instruction: string, split: "train" | "test" = "train"): Task => ({
  id,
  domain: "web",
  instruction,
  split,
  origin: "imported",
});
const tasks = [
  task("web:1", "How many orders did Alice place in May?"),
  task("web:2", "How many orders did Bob place in June?"),
  task("web:3", "Show the refund policy"),
  task("web:4", "Open the settings page of the store and export every order placed last year as one file"),
  task("web:7", "Disable the product Glass Teapot now"),
  task("web:8", "Disable the product Pruning Shears now"),
  task("web:5", "Cancel order 17", "test"),
  task("web:6", "Cancel order 18", "test"),
];
const generator = blindTaskGenerator(
  "web",
  tasks.filter((t) => t.split === "train").map((t) => t.instruction),
);

describe("blind task generator", () => {
  it("takes one span at a time from a sibling of the parent's template, with lineage", async () => {
    const variations = await generator.vary(tasks[0]!, 10, new Rng("v"));
    expect(variations.map((v) => v.instruction).sort()).toEqual([
      "How many orders did Alice place in June?",
      "How many orders did Bob place in May?",
    ]);
    for (const v of variations) {
      expect(v).toMatchObject({
        domain: "web",
        split: "train",
        origin: "generated",
        parentId: "web:1",
        generation: 1,
      });
      // No hidden goal: nothing of a real environment went into it, and no real environment can play it.
      expect(v.goal).toBeUndefined();
    }
  });

  it("is deterministic under its rng, proposes nothing without a sibling, and never varies test tasks", async () => {
    const again = await generator.vary(tasks[0]!, 1, new Rng("v"));
    expect(again).toEqual(await generator.vary(tasks[0]!, 1, new Rng("v")));
    expect(await generator.vary(tasks[2]!, 5, new Rng("v"))).toEqual([]);
    // One differing span (a two-word name) is the sibling itself: no "Glass Shears", nothing new.
    expect(await generator.vary(tasks[4]!, 5, new Rng("v"))).toEqual([]);
    await expect(generator.vary(tasks[6]!, 1, new Rng("v"))).rejects.toThrow(/held-out test task/);
  });

  it("works from the seed instructions alone in every built-in domain, writing tasks no seed shows", async () => {
    for (const name of ["shop", "household"] as const) {
      const seeds = getRealDomain(name).tasks("train", 300);
      const blind = blindTaskGenerator(
        name,
        seeds.map((t) => t.instruction),
      );
      const known = new Set(seeds.map((t) => t.instruction));
      const rng = new Rng(`blind:${name}`);
      const variations = (await Promise.all(seeds.slice(0, 40).map((s) => blind.vary(s, 2, rng)))).flat();
      expect(variations.length, name).toBeGreaterThan(20);
      for (const v of variations) {
        expect(known.has(v.instruction)).toBe(false);
        expect(v.goal).toBeUndefined();
      }
    }
  });
});
