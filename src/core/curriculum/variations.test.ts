import { describe, expect, it } from "vitest";
import { shop } from "../envs/shop";
import type { Task } from "../types";
import { Rng } from "../util/random";
import { embeddedTaskGenerator } from "./embedded";
import type { TaskGenerator } from "./generator";
import { TaskValueTable } from "./valueTable";
import { chooseParents, proposeVariations } from "./variations";

describe("curriculum generation step", () => {
  const tasks = shop.tasks("train", 6);
  const table = new TaskValueTable();
  // Known groups: task 2 on the frontier, task 4 close to it, task 0 mastered, task 5 hopeless, 1 and 3 unseen.
  table.observe(0, tasks[2]!.id, [1, 0, 1, 0]);
  table.observe(0, tasks[4]!.id, [1, 1, 1, 0]);
  table.observe(0, tasks[0]!.id, [1, 1, 1, 1]);
  table.observe(0, tasks[5]!.id, [0, 0, 0, 0]);

  it("varies the most valuable tasks, never the spent or unseen ones", () => {
    const candidates = table.candidates(tasks);
    expect(chooseParents(candidates, 5, new Rng(1)).map((t) => t.id)).toEqual([tasks[2]!.id, tasks[4]!.id]);
  });

  it("returns new tasks with lineage, deterministically", async () => {
    const run = () =>
      proposeVariations({
        candidates: table.candidates(tasks),
        generator: embeddedTaskGenerator("shop"),
        parents: 2,
        perParent: 3,
        rng: new Rng("round-1"),
      });
    const first = await run();
    expect(first.parents.map((p) => p.id)).toEqual([tasks[2]!.id, tasks[4]!.id]);
    expect(first.tasks).toHaveLength(6);
    for (const t of first.tasks) expect([tasks[2]!.id, tasks[4]!.id]).toContain(t.parentId);
    expect(await run()).toEqual(first);
  });

  it("drops variations already in the pool", async () => {
    const repeat: TaskGenerator = {
      name: "repeat",
      vary: async (parent: Task) => [{ ...parent, id: `${parent.id}~vsame`, origin: "generated" }],
    };
    const known = new Set([`${tasks[2]!.id}~vsame`]);
    const { tasks: fresh } = await proposeVariations({
      candidates: table.candidates(tasks),
      generator: repeat,
      parents: 2,
      perParent: 1,
      rng: new Rng(1),
      known,
    });
    expect(fresh.map((t) => t.id)).toEqual([`${tasks[4]!.id}~vsame`]);
  });
});
