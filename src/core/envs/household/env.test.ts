import { describe, expect, it } from "vitest";
import type { Task } from "../../types";
import { HouseholdEnvironment, replay } from "./env";
import { type HouseholdGoal, validateHouseholdGoal } from "./goal";
import { canonicalCommand } from "./grammar";
import { household } from "./index";
import { generateRoom } from "./rooms";
import { admissibleCommands, applyAction, NOTHING_HAPPENS } from "./rules";
import { listThings } from "./text";
import { cloneWorld, isGoalSatisfied, type World } from "./world";

/** A tiny hand-built kitchen corner, so the expected admissible commands can be written out in full. */
function handWorld(): World {
  return {
    receptacles: [
      { name: "cabinet 1", cls: "cabinet", openable: true, open: false, contents: ["plate 1"] },
      {
        name: "countertop 1",
        cls: "countertop",
        openable: false,
        open: false,
        contents: ["apple 1", "mug 2"],
      },
      { name: "fridge 1", cls: "fridge", openable: true, open: false, contents: [] },
      { name: "microwave 1", cls: "microwave", openable: true, open: false, contents: [] },
      { name: "sidetable 1", cls: "sidetable", openable: false, open: false, contents: [] },
      { name: "sinkbasin 1", cls: "sinkbasin", openable: false, open: false, contents: [] },
    ],
    items: new Map(
      ["plate 1", "apple 1", "mug 2"].map((name) => [
        name,
        { name, cls: name.split(" ")[0] as string, hot: false, cool: false, clean: false },
      ]),
    ),
    lamps: [{ name: "desklamp 1", cls: "desklamp", at: "sidetable 1", on: false }],
    at: null,
    holding: null,
  };
}

const goTos = (world: World, except?: string): string[] =>
  world.receptacles.filter((r) => r.name !== except).map((r) => `go to ${r.name}`);

describe("admissible commands", () => {
  it("a closed cabinet offers open and examine, but not take", () => {
    const world = handWorld();
    expect(applyAction(world, "go to cabinet 1")).toEqual({
      valid: true,
      message: "You arrive at cabinet 1. The cabinet 1 is closed.",
    });
    expect(admissibleCommands(world)).toEqual([
      ...goTos(world, "cabinet 1"),
      "open cabinet 1",
      "examine cabinet 1",
      "inventory",
      "look",
    ]);
    expect(applyAction(world, "take plate 1 from cabinet 1")).toEqual({
      valid: false,
      message: NOTHING_HAPPENS,
    });

    expect(applyAction(world, "open cabinet 1").message).toBe(
      "You open the cabinet 1. The cabinet 1 is open. In it, you see a plate 1.",
    );
    expect(admissibleCommands(world)).toContain("take plate 1 from cabinet 1");
    expect(admissibleCommands(world)).toContain("close cabinet 1");
    expect(admissibleCommands(world)).not.toContain("open cabinet 1");
  });

  it("holding an object offers put, the appliance's treatment and examining it, and no take", () => {
    const world = handWorld();
    applyAction(world, "go to countertop 1");
    expect(applyAction(world, "take apple 1 from countertop 1").message).toBe(
      "You pick up the apple 1 from the countertop 1.",
    );
    expect(admissibleCommands(world)).toEqual([
      ...goTos(world, "countertop 1"),
      "put apple 1 in/on countertop 1",
      "examine countertop 1",
      "examine apple 1",
      "inventory",
      "look",
    ]);
    applyAction(world, "go to microwave 1");
    // The microwave need not be open to heat (as in ALFWorld), but must be to put something in it.
    expect(admissibleCommands(world)).toContain("heat apple 1 with microwave 1");
    expect(admissibleCommands(world)).not.toContain("put apple 1 in/on microwave 1");
    expect(admissibleCommands(world)).not.toContain("cool apple 1 with microwave 1");
    expect(applyAction(world, "heat apple 1 with microwave 1").message).toBe(
      "You heat the apple 1 using the microwave 1.",
    );
    expect(applyAction(world, "examine apple 1").message).toBe("This is a hot apple 1.");
    expect(applyAction(world, "inventory").message).toBe("You are carrying: a apple 1.");
  });

  it("lamps are used where they stand and listed with the furniture", () => {
    const world = handWorld();
    expect(admissibleCommands(world)).not.toContain("use desklamp 1");
    expect(applyAction(world, "go to sidetable 1").message).toBe(
      "You arrive at sidetable 1. On the sidetable 1, you see a desklamp 1.",
    );
    expect(admissibleCommands(world)).toContain("use desklamp 1");
    expect(applyAction(world, "use desklamp 1").message).toBe("You turn on the desklamp 1.");
    expect(applyAction(world, "take desklamp 1 from sidetable 1").valid).toBe(false);
  });

  it("accepts ALFWorld's spellings of put and normalizes case, spaces and a final period", () => {
    expect(canonicalCommand("put apple 1 in fridge 1")).toBe("put apple 1 in/on fridge 1");
    expect(canonicalCommand("put apple 1 on fridge 1")).toBe("put apple 1 in/on fridge 1");
    expect(canonicalCommand("  Put  apple 1 in/on fridge 1.")).toBe("put apple 1 in/on fridge 1");
    expect(canonicalCommand("move apple 1 to fridge 1")).toBe("put apple 1 in/on fridge 1");
    expect(canonicalCommand("go to the fridge")).toBeNull();
    expect(canonicalCommand("dance")).toBeNull();
  });

  it("every admissible command is valid", () => {
    for (const task of household.tasks("test", 12)) {
      const world = generateRoom(validateHouseholdGoal(task.goal));
      // Walk a fixed path through the room, checking every admissible command from a copy at each stop.
      for (const r of world.receptacles.slice(0, 6)) {
        applyAction(world, `go to ${r.name}`);
        if (r.openable) applyAction(world, `open ${r.name}`);
        for (const command of admissibleCommands(world)) {
          expect(applyAction(cloneWorld(world), command).valid, command).toBe(true);
        }
      }
    }
  });
});

describe("observations", () => {
  it("lists like ALFWorld", () => {
    expect(listThings([])).toBe("nothing");
    expect(listThings(["apple 1"])).toBe("a apple 1");
    expect(listThings(["apple 1", "mug 2"])).toBe("a apple 1, and a mug 2");
    expect(listThings(["apple 1", "mug 2", "cd 1"])).toBe("a apple 1, a mug 2, and a cd 1");
  });

  it("starts in the middle of the room with the task, and lists the admissible commands", async () => {
    const task = household.task("test", 0);
    const observation = await household.createEnvironment().reset(task);
    expect(observation.text).toMatch(
      /^You are in the middle of a room\. Looking quickly around you, you see a [a-z]+ \d+, .*, and a [a-z]+ \d+\./,
    );
    expect(observation.text).toContain(`Your task is to: ${task.instruction}`);
    expect(observation.text).toContain("[location: middle of the room | holding: nothing]");
    expect(observation.actions).toContain("look");
    expect(observation.actions?.filter((a) => a.startsWith("go to ")).length).toBeGreaterThan(8);
  });
});

describe("HouseholdEnvironment", () => {
  const task = household.task("test", 2);

  it("an invalid action changes nothing, gives reward 0, valid false, 'Nothing happens.', and counts as a step", async () => {
    const env = household.createEnvironment();
    const start = await env.reset(task);
    for (const action of [
      "dance",
      "take apple 1 from countertop 1",
      "open microwave 1",
      "put mug 1 in/on sinkbasin 1",
    ]) {
      const result = await env.step(action);
      expect(result.valid).toBe(false);
      expect(result.reward).toBe(0);
      expect(result.done).toBe(false);
      expect(result.observation.text.split("\n")[0]).toBe("Nothing happens.");
      expect(result.observation.actions).toEqual(start.actions);
    }
    const after = await env.step("look");
    expect(after.valid).toBe(true);
    expect(after.info?.step).toBe(5);
    // The world after the invalid actions is the world without them.
    const clean = await replay(task, ["look"]);
    expect(after.observation).toEqual(clean[0]?.observation);
  });

  it("ends unsuccessfully after 50 steps and refuses a 51st", async () => {
    const env = household.createEnvironment();
    await env.reset(task);
    for (let i = 1; i < 50; i++) {
      const result = await env.step(i % 2 === 0 ? "look" : "jump");
      expect(result.done, `step ${i}`).toBe(false);
    }
    const last = await env.step("inventory");
    expect(last).toMatchObject({ done: true, success: false, reward: 0, valid: true });
    await expect(env.step("look")).rejects.toThrow(/ended/);
  });

  it("is deterministic, and replay reproduces a live episode", async () => {
    const actions = household.expert();
    const env = household.createEnvironment();
    let observation = await env.reset(task);
    const live = [];
    const taken: string[] = [];
    const history = [];
    for (;;) {
      const { action } = await actions.act(task, history, observation);
      const result = await env.step(action);
      live.push(result);
      taken.push(action);
      history.push({ state: observation, action, ...result, next: result.observation });
      observation = result.observation;
      if (result.done) break;
    }
    expect(live.at(-1)).toMatchObject({ success: true, reward: 1, done: true });
    expect(await replay(task, taken)).toEqual(live);
    // Actions after the end are ignored by replay.
    expect(await replay(task, [...taken, "look"])).toEqual(live);
    const second = household.createEnvironment();
    expect(await second.reset(task)).toEqual(await household.createEnvironment().reset(task));
  });

  it("environments are independent instances", async () => {
    const a = household.createEnvironment();
    const b = household.createEnvironment();
    const first = await a.reset(household.task("test", 0));
    await b.reset(household.task("test", 1));
    const go = first.actions?.find((x) => x.startsWith("go to ")) as string;
    await b.step("look");
    expect((await a.step(go)).valid).toBe(true);
  });

  it("rejects step before reset and a task without a goal", async () => {
    await expect(new HouseholdEnvironment().step("look")).rejects.toThrow(/before reset/);
    const noGoal: Task = {
      id: "x",
      domain: "household",
      instruction: "?",
      split: "test",
      origin: "imported",
    };
    await expect(new HouseholdEnvironment().reset(noGoal)).rejects.toThrow(/no goal/);
  });
});

describe("goal conditions", () => {
  const kitchenGoal = (type: string, object: string, target: string): HouseholdGoal =>
    validateHouseholdGoal({ type, object, target, room: { seed: 42, kind: "kitchen" } });

  it("a clean apple must end up in the fridge: an unwashed one does not count", () => {
    const goal = kitchenGoal("pick_clean_then_place_in_recep", "apple", "fridge");
    const world = handWorld();
    for (const a of [
      "go to countertop 1",
      "take apple 1 from countertop 1",
      "go to fridge 1",
      "open fridge 1",
    ]) {
      expect(applyAction(world, a).valid, a).toBe(true);
    }
    const unwashed = cloneWorld(world);
    applyAction(unwashed, "put apple 1 in fridge 1");
    expect(isGoalSatisfied(unwashed, goal)).toBe(false);
    for (const a of [
      "go to sinkbasin 1",
      "clean apple 1 with sinkbasin 1",
      "go to fridge 1",
      "put apple 1 on fridge 1",
    ]) {
      expect(applyAction(world, a).valid, a).toBe(true);
    }
    expect(isGoalSatisfied(world, goal)).toBe(true);
  });

  it("heating undoes cooling", () => {
    const goal = kitchenGoal("pick_cool_then_place_in_recep", "apple", "countertop");
    const world = handWorld();
    for (const a of [
      "go to countertop 1",
      "take apple 1 from countertop 1",
      "go to fridge 1",
      "cool apple 1 with fridge 1",
      "go to microwave 1",
      "heat apple 1 with microwave 1",
      "go to countertop 1",
      "put apple 1 in/on countertop 1",
    ]) {
      expect(applyAction(world, a).valid, a).toBe(true);
    }
    expect(isGoalSatisfied(world, goal)).toBe(false);
  });

  it("look needs the object in hand where a lamp of the right class is on", () => {
    const goal = {
      type: "look_at_obj_in_light",
      object: "apple",
      target: "desklamp",
      room: { seed: 1, kind: "bedroom" },
    } as const;
    const world = handWorld();
    applyAction(world, "go to sidetable 1");
    applyAction(world, "use desklamp 1");
    expect(isGoalSatisfied(world, goal)).toBe(false);
    applyAction(world, "go to countertop 1");
    applyAction(world, "take apple 1 from countertop 1");
    expect(isGoalSatisfied(world, goal)).toBe(false);
    applyAction(world, "go to sidetable 1");
    expect(isGoalSatisfied(world, goal)).toBe(true);
    expect(isGoalSatisfied(world, { ...goal, target: "floorlamp" })).toBe(false);
  });

  it("pick_two needs two objects of the class in the same receptacle", () => {
    const goal = {
      type: "pick_two_obj_and_place",
      object: "mug",
      target: "sinkbasin",
      room: { seed: 1, kind: "kitchen" },
    } as const;
    const world = handWorld();
    world.items.set("mug 3", { name: "mug 3", cls: "mug", hot: false, cool: false, clean: false });
    world.receptacles[0]?.contents.push("mug 3");
    for (const a of [
      "go to countertop 1",
      "take mug 2 from countertop 1",
      "go to sinkbasin 1",
      "put mug 2 in sinkbasin 1",
    ]) {
      applyAction(world, a);
    }
    expect(isGoalSatisfied(world, goal)).toBe(false);
    for (const a of [
      "go to cabinet 1",
      "open cabinet 1",
      "take mug 3 from cabinet 1",
      "go to sinkbasin 1",
      "put mug 3 in sinkbasin 1",
    ]) {
      expect(applyAction(world, a).valid, a).toBe(true);
    }
    expect(isGoalSatisfied(world, goal)).toBe(true);
  });
});
