import { describe, expect, it } from "vitest";
import { hashString } from "../../util/random";
import { APPLIANCE, TASK_TYPES } from "./catalog";
import { checkHouseholdGoal, type HouseholdGoal, HouseholdGoalError, validateHouseholdGoal } from "./goal";
import { household } from "./index";
import { generateRoom } from "./rooms";
import { householdTaskFromGoal } from "./tasks";
import { locationOf } from "./world";

describe("seed tasks", () => {
  it("are stable across versions (pinned goals and rooms)", () => {
    const test0 = household.task("test", 0);
    expect(test0).toEqual({
      id: "household:test:0",
      domain: "household",
      instruction: "put a vase on diningtable.",
      split: "test",
      origin: "seed",
      generation: 0,
      goal: {
        type: "pick_and_place_simple",
        object: "vase",
        target: "diningtable",
        room: { seed: 3532047039, kind: "living room" },
      },
    });
    expect(household.task("train", 3).goal).toEqual({
      type: "pick_heat_then_place_in_recep",
      object: "bread",
      target: "diningtable",
      room: { seed: 1056214160, kind: "kitchen" },
    });
    expect(household.task("train", 3).instruction).toBe("put a hot bread on diningtable.");
    // A change to room generation changes these fingerprints, and with them every seed task's room.
    const fingerprint = (goal: unknown): number => {
      const world = generateRoom(validateHouseholdGoal(goal));
      return hashString(JSON.stringify({ r: world.receptacles, l: world.lamps }));
    };
    expect(fingerprint(test0.goal)).toBe(1251882350);
    expect(fingerprint(household.task("train", 3).goal)).toBe(2800721003);
  });

  it("are deterministic and spread the six types evenly", () => {
    const tasks = household.tasks("test", 120);
    expect(household.tasks("test", 120)).toEqual(tasks);
    expect(tasks[17]).toEqual(household.task("test", 17));
    const counts = new Map<string, number>();
    for (const task of tasks) {
      const type = validateHouseholdGoal(task.goal).type;
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([...TASK_TYPES].sort());
    for (const count of counts.values()) expect(count).toBe(20);
  });

  it("train and test rooms are disjoint", () => {
    const seeds = (split: "train" | "test") =>
      new Set(household.tasks(split, 1000).map((task) => validateHouseholdGoal(task.goal).room.seed));
    const train = seeds("train");
    const test = seeds("test");
    expect(train.size).toBeGreaterThan(990);
    for (const seed of test) expect(train.has(seed)).toBe(false);
  });

  it("rooms guarantee solvability: target, appliance, lamp, enough goal objects, none already placed", () => {
    const tasks = [...household.tasks("train", 300), ...household.tasks("test", 300)];
    for (const task of tasks) {
      const goal = validateHouseholdGoal(task.goal);
      const world = generateRoom(goal);
      const classes = new Set(world.receptacles.map((r) => r.cls));
      const goalObjects = [...world.items.values()].filter((item) => item.cls === goal.object);
      expect(goalObjects.length, task.id).toBeGreaterThanOrEqual(
        goal.type === "pick_two_obj_and_place" ? 2 : 1,
      );
      if (goal.type === "look_at_obj_in_light") {
        expect(world.lamps.some((lamp) => lamp.cls === goal.target)).toBe(true);
        continue;
      }
      expect(classes.has(goal.target), task.id).toBe(true);
      const appliance = APPLIANCE[goal.type];
      if (appliance) expect(classes.has(appliance), task.id).toBe(true);
      for (const item of goalObjects) expect(locationOf(world, item.name)?.cls).not.toBe(goal.target);
      const openable = world.receptacles.filter((r) => r.openable);
      expect(openable.every((r) => !r.open)).toBe(true);
    }
  });
});

describe("goal validation", () => {
  const base: HouseholdGoal = {
    type: "pick_heat_then_place_in_recep",
    object: "apple",
    target: "countertop",
    room: { seed: 7, kind: "kitchen" },
  };

  it("accepts a solvable goal and builds a task for it", () => {
    expect(validateHouseholdGoal(base)).toEqual(base);
    const task = householdTaskFromGoal(
      { ...base, object: "egg", target: "garbagecan" },
      { id: "household:gen:1", split: "train", parentId: "household:train:3", generation: 1 },
    );
    expect(task).toMatchObject({ origin: "generated", parentId: "household:train:3", generation: 1 });
    expect(task.instruction).toMatch(
      /^(put a hot egg in garbagecan|heat some egg and put it in garbagecan)\.$/,
    );
  });

  it("explains why a goal is unsolvable", () => {
    expect(() => validateHouseholdGoal({ ...base, room: { seed: 7, kind: "bathroom" } })).toThrow(
      /needs a microwave, and a bathroom has none/,
    );
    expect(() => validateHouseholdGoal({ ...base, object: "cd" })).toThrow(/a kitchen has no cd/);
    expect(() => validateHouseholdGoal({ ...base, object: "knife" })).toThrow(
      /pick_heat_then_place_in_recep cannot be done to a knife/,
    );
    expect(() => validateHouseholdGoal({ ...base, target: "sofa" })).toThrow(
      /a kitchen has no receptacle "sofa"/,
    );
    expect(() =>
      validateHouseholdGoal({
        type: "look_at_obj_in_light",
        object: "book",
        target: "countertop",
        room: { seed: 1, kind: "bedroom" },
      }),
    ).toThrow(/needs a lamp class/);
    expect(() => householdTaskFromGoal({ ...base, type: "juggle" }, { id: "x", split: "train" })).toThrow(
      HouseholdGoalError,
    );
    const check = checkHouseholdGoal({ ...base, room: { seed: -1, kind: "garage" } });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problems.join("\n")).toMatch(/room\.seed/);
    if (!check.ok) expect(check.problems.join("\n")).toMatch(/room\.kind/);
  });

  it("a goal whose object only lives on the target still gets a solvable room", async () => {
    const task = householdTaskFromGoal(
      {
        type: "pick_and_place_simple",
        object: "towel",
        target: "towelholder",
        room: { seed: 3, kind: "bathroom" },
      },
      { id: "towel", split: "test" },
    );
    const world = generateRoom(validateHouseholdGoal(task.goal));
    expect(world.receptacles.some((r) => r.cls === "towelholder")).toBe(true);
    expect(locationOf(world, "towel 1")?.cls).not.toBe("towelholder");
  });
});
