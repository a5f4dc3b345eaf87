import type { LampClass } from "./catalog";
import type { HouseholdGoal } from "./goal";

/**
 * The true state of a household room, mutable and cheap to copy. Names are ALFWorld's ("cabinet 3", "apple 1");
 * an object is either in exactly one receptacle's `contents` or in the agent's hand.
 */
export interface Receptacle {
  name: string;
  cls: string;
  openable: boolean;
  open: boolean;
  /** Object names in the order they were put there (the order observations list them). */
  contents: string[];
}

export interface Item {
  name: string;
  cls: string;
  hot: boolean;
  cool: boolean;
  clean: boolean;
}

export interface Lamp {
  name: string;
  cls: LampClass;
  /** The receptacle the lamp stands on (desklamp) or next to (floorlamp); "use" works only there. */
  at: string;
  on: boolean;
}

export interface World {
  /** In the order ALFWorld lists them when the episode starts. */
  receptacles: Receptacle[];
  items: Map<string, Item>;
  lamps: Lamp[];
  /** The receptacle the agent stands at; null in the middle of the room, where every episode starts. */
  at: string | null;
  holding: string | null;
}

export function cloneWorld(world: World): World {
  const items = new Map<string, Item>();
  for (const [name, item] of world.items) items.set(name, { ...item });
  return {
    receptacles: world.receptacles.map((r) => ({ ...r, contents: r.contents.slice() })),
    items,
    lamps: world.lamps.map((lamp) => ({ ...lamp })),
    at: world.at,
    holding: world.holding,
  };
}

export function receptacleNamed(world: World, name: string): Receptacle | undefined {
  for (const r of world.receptacles) if (r.name === name) return r;
  return undefined;
}

/** Whether the agent can see (and so take from and put into) a receptacle's contents. */
export function isAccessible(r: Receptacle): boolean {
  return !r.openable || r.open;
}

/** The receptacle holding an object, or undefined when it is in the agent's hand. */
export function locationOf(world: World, itemName: string): Receptacle | undefined {
  for (const r of world.receptacles) if (r.contents.includes(itemName)) return r;
  return undefined;
}

/** Whether an object has the state a treatment task asks for (any object of the class for the other types). */
export function isTreatedFor(goal: HouseholdGoal, item: Item): boolean {
  switch (goal.type) {
    case "pick_clean_then_place_in_recep":
      return item.clean;
    case "pick_heat_then_place_in_recep":
      return item.hot;
    case "pick_cool_then_place_in_recep":
      return item.cool;
    default:
      return true;
  }
}

/** How many objects satisfying the goal a receptacle holds. */
export function goalObjectsIn(world: World, goal: HouseholdGoal, r: Receptacle): number {
  let count = 0;
  for (const name of r.contents) {
    const item = world.items.get(name);
    if (item && item.cls === goal.object && isTreatedFor(goal, item)) count++;
  }
  return count;
}

/**
 * ALFWorld's goal conditions: a (treated) object of the class in some receptacle of the target class (two in the
 * same one for pick_two); for look, holding one at the place of a lamp of the target class that is on.
 */
export function isGoalSatisfied(world: World, goal: HouseholdGoal): boolean {
  if (goal.type === "look_at_obj_in_light") {
    if (world.holding === null || world.at === null) return false;
    if (world.items.get(world.holding)?.cls !== goal.object) return false;
    return world.lamps.some((lamp) => lamp.cls === goal.target && lamp.at === world.at && lamp.on);
  }
  const needed = goal.type === "pick_two_obj_and_place" ? 2 : 1;
  return world.receptacles.some((r) => r.cls === goal.target && goalObjectsIn(world, goal, r) >= needed);
}
