import { z } from "zod";
import { Rng } from "../../util/random";
import {
  APPLIANCE,
  isLampClass,
  RECEPTACLE_CLASSES,
  ROOM_KINDS,
  ROOM_OBJECTS,
  type RoomKind,
  roomHasReceptacleClass,
  roomLampSpec,
  TASK_TYPES,
  type TaskType,
  TREATABLE,
} from "./catalog";

/**
 * The hidden goal of a household task: what to do (type), with which object class, where to put it (a receptacle
 * class) or under which lamp class (look tasks), and the room it happens in. The room is rebuilt from
 * (seed, kind) plus the goal, so the goal alone is enough to replay an episode.
 */
export const HouseholdGoal = z.object({
  type: z.enum(TASK_TYPES),
  object: z.string().min(1),
  target: z.string().min(1),
  room: z.object({
    seed: z.number().int().min(0).max(0xffffffff),
    kind: z.enum(ROOM_KINDS),
  }),
});
export type HouseholdGoal = z.infer<typeof HouseholdGoal>;

export class HouseholdGoalError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid household goal: ${problems.join("; ")}`);
    this.name = "HouseholdGoalError";
  }
}

/** Why a well-formed goal cannot be solved in its kind of room; empty when it can. */
export function householdGoalProblems(goal: HouseholdGoal): string[] {
  const problems: string[] = [];
  const { type, object, target } = goal;
  const kind: RoomKind = goal.room.kind;
  const objects = ROOM_OBJECTS[kind];
  if (!Object.hasOwn(objects, object)) {
    problems.push(`object: a ${kind} has no ${object}; it has ${Object.keys(objects).join(", ")}`);
  }
  if (type === "look_at_obj_in_light") {
    if (!isLampClass(target)) {
      problems.push(`target: ${type} needs a lamp class (desklamp or floorlamp), got "${target}"`);
    } else if (!roomLampSpec(kind, target)) {
      problems.push(`target: a ${kind} has no ${target}`);
    }
    return problems;
  }
  if (!Object.hasOwn(RECEPTACLE_CLASSES, target) || !roomHasReceptacleClass(kind, target)) {
    const here = Object.keys(RECEPTACLE_CLASSES)
      .filter((cls) => roomHasReceptacleClass(kind, cls))
      .join(", ");
    problems.push(`target: a ${kind} has no receptacle "${target}"; it has ${here}`);
  }
  const appliance = APPLIANCE[type];
  if (appliance && !roomHasReceptacleClass(kind, appliance)) {
    problems.push(`room.kind: ${type} needs a ${appliance}, and a ${kind} has none`);
  }
  const treatable = TREATABLE[type];
  if (treatable && !treatable.has(object)) {
    problems.push(`object: ${type} cannot be done to a ${object}; it works on ${[...treatable].join(", ")}`);
  }
  return problems;
}

export type GoalCheck = { ok: true; goal: HouseholdGoal } | { ok: false; problems: string[] };

/** Parse and check a goal without throwing: for curriculum code that filters generated variations. */
export function checkHouseholdGoal(input: unknown): GoalCheck {
  const parsed = HouseholdGoal.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${issue.path.join(".") || "goal"}: ${issue.message}`),
    };
  }
  const problems = householdGoalProblems(parsed.data);
  return problems.length === 0 ? { ok: true, goal: parsed.data } : { ok: false, problems };
}

/** The goal, parsed and known solvable; throws a HouseholdGoalError naming every problem otherwise. */
export function validateHouseholdGoal(input: unknown): HouseholdGoal {
  const check = checkHouseholdGoal(input);
  if (!check.ok) throw new HouseholdGoalError(check.problems);
  return check.goal;
}

/** ALFWorld's instruction templates, one per phrasing seen in its task files. */
const TEMPLATES: Record<TaskType, readonly string[]> = {
  pick_and_place_simple: ["put a {o} {p} {r}.", "put some {o} {p} {r}."],
  look_at_obj_in_light: ["look at {o} under the {r}.", "examine the {o} with the {r}."],
  pick_clean_then_place_in_recep: ["put a clean {o} {p} {r}.", "clean some {o} and put it {p} {r}."],
  pick_heat_then_place_in_recep: ["put a hot {o} {p} {r}.", "heat some {o} and put it {p} {r}."],
  pick_cool_then_place_in_recep: ["put a cool {o} {p} {r}.", "cool some {o} and put it {p} {r}."],
  pick_two_obj_and_place: ["put two {o} {p} {r}.", "find two {o} and put them {p} {r}."],
};

/** The instruction text (without ALFWorld's "Your task is to: " prefix); the phrasing is fixed by the room seed. */
export function householdInstruction(goal: HouseholdGoal): string {
  const templates = TEMPLATES[goal.type];
  const template = new Rng(`household-phrasing:${goal.room.seed}`).pick(templates);
  const preposition = RECEPTACLE_CLASSES[goal.target]?.preposition ?? "in";
  return template.replace("{o}", goal.object).replace("{p}", preposition).replace("{r}", goal.target);
}
