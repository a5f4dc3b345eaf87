import { describe, expect, it } from "vitest";
import { ImportedDomain } from "../envs/imported/importedDomain";
import type { Task } from "../types";
import { Rng } from "../util/random";
import { importedTaskGenerator } from "./importedVariations";

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
  task("web:4", "How many reviews did Alice write in May?"),
  task("web:7", "Disable the product Glass Teapot now"),
  task("web:8", "Disable the product Pruning Shears now"),
  task("web:5", "Cancel order 17", "test"),
  task("web:6", "Cancel order 18", "test"),
];
const domain = new ImportedDomain({
  name: "web",
  tasks,
  episodes: tasks.map((t) => ({
    taskId: t.id,
    success: true,
    steps: [
      {
        state: { text: "home" },
        action: "stop[x]",
        next: { text: "done" },
        reward: 1,
        done: true,
        success: true,
        valid: true,
      },
    ],
  })),
});

describe("imported task generator", () => {
  const generator = importedTaskGenerator(domain);

  it("recombines the slots in which a parent differs from siblings of its template", async () => {
    const variations = await generator.vary(tasks[0]!, 10, new Rng("v"));
    expect(variations.map((v) => v.instruction).sort()).toEqual([
      "How many orders did Alice place in June?",
      "How many orders did Bob place in May?",
    ]);
    for (const v of variations)
      expect(v).toMatchObject({
        domain: "web",
        split: "train",
        origin: "generated",
        parentId: "web:1",
        generation: 1,
      });
    // "reviews ... write" is another question, not another slot value: nothing is taken from it.
    expect(variations.some((v) => /reviews|write/.test(v.instruction))).toBe(false);
  });

  it("is deterministic under its rng, proposes nothing for a task without siblings, and never varies test tasks", async () => {
    const again = await generator.vary(tasks[0]!, 1, new Rng("v"));
    expect(again).toEqual(await generator.vary(tasks[0]!, 1, new Rng("v")));
    expect(await generator.vary(tasks[2]!, 5, new Rng("v"))).toEqual([]);
    // A name of two words is one slot: no "Glass Shears", a product that no log shows.
    expect(await generator.vary(tasks[4]!, 5, new Rng("v"))).toEqual([]);
    await expect(generator.vary(tasks[6]!, 1, new Rng("v"))).rejects.toThrow(/held-out test task/);
  });
});
