import type { Split, Task } from "../../types";
import { hashString, Rng } from "../../util/random";
import { type TaskMeta, taskFromGoal } from "../domain";
import {
  APPLIANCE,
  ROOM_KINDS,
  ROOM_LAMPS,
  ROOM_OBJECTS,
  type RoomKind,
  roomHasReceptacleClass,
  TASK_TYPES,
  type TaskType,
  TREATABLE,
} from "./catalog";
import { type HouseholdGoal, householdInstruction, validateHouseholdGoal } from "./goal";

/**
 * The seed tasks. Task `index` of a split has type TASK_TYPES[index % 6], so any prefix of a split has the types
 * in equal shares; everything else comes from hash("household:split:index"). Train seeds are even and test seeds
 * odd, so no room is in both splits even if two hashes collide.
 */
export function householdSeedGoal(split: Split, index: number): HouseholdGoal {
  if (!Number.isInteger(index) || index < 0)
    throw new Error(`household task index must be >= 0, got ${index}`);
  const hash = hashString(`household:${split}:${index}`);
  const seed = ((hash & ~1) | (split === "test" ? 1 : 0)) >>> 0;
  const rng = new Rng(hash);
  const type = TASK_TYPES[index % TASK_TYPES.length] as TaskType;
  const kind = rng.pick(ROOM_KINDS.filter((k) => objectChoices(type, k).length > 0));
  const object = rng.pick(objectChoices(type, kind));
  const target = rng.pick(targetChoices(type, kind, object));
  return { type, object, target, room: { seed, kind } };
}

/** Object classes a seed task of this type may use in this kind of room. */
/** Object classes a task of this type can use in this kind of room (seed tasks and curriculum variations). */
export function objectChoices(type: TaskType, kind: RoomKind): string[] {
  const appliance = APPLIANCE[type];
  if (appliance && !roomHasReceptacleClass(kind, appliance)) return [];
  if (type === "look_at_obj_in_light" && ROOM_LAMPS[kind].length === 0) return [];
  const treatable = TREATABLE[type];
  return Object.keys(ROOM_OBJECTS[kind]).filter(
    (cls) => (!treatable || treatable.has(cls)) && targetChoices(type, kind, cls).length > 0,
  );
}

/**
 * Targets for seed tasks: a lamp of the room for look; otherwise a place the object plausibly goes, other than
 * the task's own appliance ("cool some pan and put it in fridge" would be done as soon as it is cooled), and with
 * at least one other usual place left for the objects to start in.
 */
export function targetChoices(type: TaskType, kind: RoomKind, object: string): string[] {
  if (type === "look_at_obj_in_light") return ROOM_LAMPS[kind].map((lamp) => lamp.cls);
  const homes = ROOM_OBJECTS[kind][object] ?? [];
  if (homes.length < 2) return [];
  return homes.filter((cls) => cls !== APPLIANCE[type]);
}

export type HouseholdTaskMeta = TaskMeta;

/** A task for any valid goal (e.g. a curriculum variation); throws a HouseholdGoalError for an unsolvable goal. */
export function householdTaskFromGoal(goal: unknown, meta: HouseholdTaskMeta): Task {
  const valid = validateHouseholdGoal(goal);
  return taskFromGoal("household", householdInstruction(valid), valid, meta);
}

export function householdTask(split: Split, index: number): Task {
  return householdTaskFromGoal(householdSeedGoal(split, index), {
    id: `household:${split}:${index}`,
    split,
    origin: "seed",
    generation: 0,
  });
}
