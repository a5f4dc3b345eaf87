/**
 * Embedded variations of a household task, in ALFWorld's terms: in the same room (same seed and kind) another
 * target receptacle, another object class found in the room, or another task type the room has the appliance
 * for; or the same task in another room of the same kind. Targets and objects follow the rules of the seed tasks
 * (a target is one of the object's usual places, never the task's own appliance, and the object keeps another
 * usual place to start from), so variations read like ALFWorld tasks, not like arbitrary valid goals.
 */
import { generateRoom, type HouseholdGoal, TASK_TYPES } from "../envs/household";
import { objectChoices, targetChoices } from "../envs/household/tasks";
import { householdGoals } from "./householdGoals";
import { OperatorTaskGenerator, type VariationOperator } from "./operators";

const anotherTarget: VariationOperator<HouseholdGoal> = {
  kind: "another target in the same room",
  apply(goal, rng) {
    const targets = targetChoices(goal.type, goal.room.kind, goal.object).filter((t) => t !== goal.target);
    if (targets.length === 0) return undefined;
    return { ...goal, target: rng.pick(targets) };
  },
};

/** Object classes lying in the parent's room, so the new goal is about something the agent has seen there. */
function classesInRoom(goal: HouseholdGoal): Set<string> {
  return new Set([...generateRoom(goal).items.values()].map((item) => item.cls));
}

const anotherObject: VariationOperator<HouseholdGoal> = {
  kind: "another object of the same room",
  apply(goal, rng) {
    const kind = goal.room.kind;
    const objects = objectChoices(goal.type, kind).filter(
      (o) => o !== goal.object && targetChoices(goal.type, kind, o).includes(goal.target),
    );
    if (objects.length === 0) return undefined;
    const present = classesInRoom(goal);
    const inRoom = objects.filter((o) => present.has(o));
    return { ...goal, object: rng.pick(inRoom.length > 0 ? inRoom : objects) };
  },
};

const anotherType: VariationOperator<HouseholdGoal> = {
  kind: "another task type for the same object",
  apply(goal, rng) {
    const kind = goal.room.kind;
    const types = TASK_TYPES.filter((t) => t !== goal.type && objectChoices(t, kind).includes(goal.object));
    if (types.length === 0) return undefined;
    const type = rng.pick(types);
    const targets = targetChoices(type, kind, goal.object);
    // Keep the target when the new type allows it (a look task needs a lamp instead).
    const target = targets.includes(goal.target) ? goal.target : rng.pick(targets);
    return { ...goal, type, target };
  },
};

const anotherRoom: VariationOperator<HouseholdGoal> = {
  kind: "the same task in another room",
  apply(goal, rng) {
    // Even seeds only: odd ones are the held-out test rooms.
    const seed = 2 * rng.int(0, 0x7fffffff);
    if (seed === goal.room.seed) return undefined;
    return { ...goal, room: { ...goal.room, seed } };
  },
};

export const HOUSEHOLD_OPERATORS: readonly VariationOperator<HouseholdGoal>[] = [
  anotherTarget,
  anotherObject,
  anotherType,
  anotherRoom,
];

export function householdTaskGenerator(): OperatorTaskGenerator<HouseholdGoal> {
  return new OperatorTaskGenerator("embedded:household", householdGoals, HOUSEHOLD_OPERATORS);
}
