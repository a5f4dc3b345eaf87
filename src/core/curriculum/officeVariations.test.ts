import { describe, expect, it } from "vitest";
import { office, validateOfficeGoal } from "../envs/office";
import { playEpisode } from "../envs/office/testing";
import { Rng } from "../util/random";
import { embeddedTaskGenerator } from "./embedded";
import { variationId } from "./generator";
import { OFFICE_OPERATORS, officeTaskGenerator } from "./officeVariations";

const parents = office.tasks("train", 30);

describe("embedded office variations", () => {
  it("are valid, keep their lineage, stay in train worlds and are solved by the expert (30 parents)", async () => {
    const generator = officeTaskGenerator();
    const failures: string[] = [];
    const kinds = new Set<string>();
    for (const parent of parents) {
      const variations = await generator.vary(parent, 3, new Rng(`office-vary:${parent.id}`));
      expect(variations.length, parent.id).toBe(3);
      for (const task of variations) {
        const goal = validateOfficeGoal(task.goal);
        expect(goal.world % 2, `${task.id} uses a test world`).toBe(0);
        expect(JSON.stringify(goal)).not.toBe(JSON.stringify(parent.goal));
        expect(task).toMatchObject({
          domain: "office",
          split: "train",
          origin: "generated",
          parentId: parent.id,
          generation: 1,
          id: variationId(parent, goal),
        });
        kinds.add(goal.changes.map((c) => c.kind).join("+"));
        const { success } = await playEpisode(office.expert(), task);
        if (!success) failures.push(`${task.id}: ${task.instruction}`);
      }
    }
    expect(failures).toEqual([]);
    expect(generator.rejections).toEqual([]);
    // Adding and dropping changes makes pairs the seed plans never ask for.
    expect(kinds.size).toBeGreaterThan(6);
    expect(OFFICE_OPERATORS).toHaveLength(4);
  });

  it("is the embedded generator of the office, and refuses to vary a test task", async () => {
    const test = office.task("test", 0);
    await expect(embeddedTaskGenerator("office").vary(test, 2, new Rng(1))).rejects.toThrow(/test/);
  });
});
