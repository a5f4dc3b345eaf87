import { describe, expect, it } from "vitest";
import { HouseholdGoal, household, validateHouseholdGoal } from "../envs/household";
import { playEpisode } from "../envs/household/testing";
import { Rng } from "../util/random";
import { embeddedTaskGenerator } from "./embedded";
import { variationId } from "./generator";
import { householdTaskGenerator } from "./householdVariations";

const parents = household.tasks("train", 30);

describe("embedded household variations", () => {
  it("are valid, keep their lineage and are solved by the expert (30 seeds)", async () => {
    const generator = householdTaskGenerator();
    const expert = household.expert();
    const failures: string[] = [];
    let total = 0;
    for (const parent of parents) {
      const variations = await generator.vary(parent, 3, new Rng(`household-vary:${parent.id}`));
      expect(variations.length, parent.id).toBe(3);
      for (const task of variations) {
        const goal = validateHouseholdGoal(task.goal);
        expect(goal.room.seed % 2, `${task.id} uses a test room seed`).toBe(0);
        expect(task).toMatchObject({
          domain: "household",
          split: "train",
          origin: "generated",
          parentId: parent.id,
          generation: 1,
          id: variationId(parent, goal),
        });
        const { success } = await playEpisode(expert, task);
        if (!success) failures.push(`${task.id}: ${task.instruction} ${JSON.stringify(goal)}`);
        total++;
      }
    }
    expect(total).toBe(90);
    expect(failures).toEqual([]);
    expect(generator.rejections).toEqual([]);
  });

  it("changes one thing at a time: target, object, task type or room", async () => {
    const changes = new Set<string>();
    for (const parent of parents) {
      const before = HouseholdGoal.parse(parent.goal);
      for (const task of await householdTaskGenerator().vary(parent, 4, new Rng(parent.id))) {
        const after = HouseholdGoal.parse(task.goal);
        const changed = [
          after.target !== before.target && after.type === before.type ? "target" : "",
          after.object !== before.object ? "object" : "",
          after.type !== before.type ? "type" : "",
          after.room.seed !== before.room.seed ? "room" : "",
        ].filter((c) => c.length > 0);
        expect(changed.length, `${task.id} changed ${changed.join(", ")}`).toBe(1);
        expect(after.room.kind).toBe(before.room.kind);
        changes.add(changed[0]!);
      }
    }
    expect([...changes].sort()).toEqual(["object", "room", "target", "type"]);
  });

  it("is deterministic under a seed", async () => {
    const parent = parents[3]!;
    const a = await embeddedTaskGenerator("household").vary(parent, 4, new Rng(9));
    const b = await embeddedTaskGenerator("household").vary(parent, 4, new Rng(9));
    expect(b).toEqual(a);
  });

  it("refuses held-out test tasks", async () => {
    await expect(householdTaskGenerator().vary(household.task("test", 1), 1, new Rng(1))).rejects.toThrow(
      /held-out test/,
    );
  });
});
