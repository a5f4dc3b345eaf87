import { describe, expect, it } from "vitest";
import { blindTaskGenerator } from "../curriculum/blindVariations";
import { household } from "../envs/household";
import { Rng } from "../util/random";
import { startStates } from "./startState";

describe("where a synthetic episode starts", () => {
  const seeds = household.tasks("train", 40);
  const start = startStates(household, seeds);

  it("a task with a goal: its real first state; a blind variation: its root's, quoting its own instruction", async () => {
    const root = seeds[0]!;
    expect(await start(root)).toEqual(await household.createEnvironment().reset(root));
    const blind = blindTaskGenerator(
      "household",
      seeds.map((t) => t.instruction),
    );
    const [variation] = await blind.vary(root, 1, new Rng("start"));
    expect(variation?.goal).toBeUndefined();
    const first = await start(variation!);
    const rootFirst = await household.createEnvironment().reset(root);
    expect(first.text).toContain(variation!.instruction);
    expect(first.text).not.toContain(root.instruction);
    expect(first.text).toBe(rootFirst.text.replace(root.instruction, variation!.instruction));
    expect(first.actions).toEqual(rootFirst.actions);
    // A variation of a variation starts from the same root.
    const [grandchild] = await blind.vary(variation!, 1, new Rng("start2"));
    if (grandchild) expect((await start(grandchild)).actions).toEqual(rootFirst.actions);
  });

  it("refuses a task with neither a goal nor a seed task at its root, naming it", async () => {
    await expect(
      start({
        id: "household:train:999~vabc",
        domain: "household",
        instruction: "x",
        split: "train",
        origin: "generated",
      }),
    ).rejects.toThrow(
      /task household:train:999~vabc has no goal and its root household:train:999 is not one of the run's seed tasks/,
    );
  });
});
