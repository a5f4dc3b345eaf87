import { Rng } from "../../util/random";
import { APPLIANCE, RECEPTACLE_CLASSES, ROOM_LAMPS, ROOM_OBJECTS, ROOM_RECEPTACLES } from "./catalog";
import type { HouseholdGoal } from "./goal";
import type { Item, Lamp, Receptacle, World } from "./world";

/**
 * Builds the room of a goal, deterministically from its seed. The draw is shaped by the goal only where
 * solvability needs it: the target receptacle, the appliance and the lamp exist, enough objects of the goal class
 * exist (two for pick_two), and none of them starts in a target receptacle, so no task is solved before it starts.
 * Assumes a goal that passed validateHouseholdGoal.
 */
export function generateRoom(goal: HouseholdGoal): World {
  const { kind, seed } = goal.room;
  const rng = new Rng(`household-room:${kind}:${seed}`);
  const isLook = goal.type === "look_at_obj_in_light";

  const required = new Set<string>();
  if (!isLook) required.add(goal.target);
  const appliance = APPLIANCE[goal.type];
  if (appliance) required.add(appliance);

  // Lamps are decided first so that their host furniture can be required before the counts are drawn.
  const lampPlan: { cls: Lamp["cls"]; hosts: readonly string[] }[] = [];
  for (const spec of ROOM_LAMPS[kind]) {
    const wanted = isLook && goal.target === spec.cls;
    if (rng.chance(spec.chance) || wanted) lampPlan.push({ cls: spec.cls, hosts: spec.hosts });
  }

  const counts = new Map<string, number>();
  for (const spec of ROOM_RECEPTACLES[kind]) counts.set(spec.cls, rng.int(spec.min, spec.max));
  for (const cls of required) counts.set(cls, Math.max(1, counts.get(cls) ?? 0));
  const present = (cls: string): boolean => (counts.get(cls) ?? 0) > 0;
  for (const lamp of lampPlan) {
    if (!lamp.hosts.some(present)) counts.set(lamp.hosts[0] as string, 1);
  }
  // The goal's objects start in one of their usual places, never in a target: one such place must exist, or a
  // searching agent would have to look everywhere.
  const goalHomeClasses = (ROOM_OBJECTS[kind][goal.object] ?? []).filter(
    (cls) => isLook || cls !== goal.target,
  );
  if (goalHomeClasses.length > 0 && !goalHomeClasses.some(present)) counts.set(rng.pick(goalHomeClasses), 1);

  const receptacles: Receptacle[] = [];
  for (const [cls, count] of counts) {
    const openable = RECEPTACLE_CLASSES[cls]?.openable ?? false;
    for (let i = 1; i <= count; i++) {
      receptacles.push({ name: `${cls} ${i}`, cls, openable, open: false, contents: [] });
    }
  }
  receptacles.sort(alfworldOrder);

  const lamps: Lamp[] = lampPlan.map((plan) => {
    const hosts = receptacles.filter((r) => plan.hosts.includes(r.cls));
    return { name: `${plan.cls} 1`, cls: plan.cls, at: rng.pick(hosts).name, on: false };
  });

  const items = new Map<string, Item>();
  const numbers = new Map<string, number>();
  const place = (cls: string, where: readonly Receptacle[]): void => {
    const n = (numbers.get(cls) ?? 0) + 1;
    numbers.set(cls, n);
    const name = `${cls} ${n}`;
    items.set(name, { name, cls, hot: false, cool: false, clean: false });
    rng.pick(where).contents.push(name);
  };

  const objects = ROOM_OBJECTS[kind];
  const homesOf = (cls: string): Receptacle[] => {
    const classes = objects[cls] ?? [];
    return receptacles.filter((r) => classes.includes(r.cls));
  };

  // Only an object whose one usual place is the target itself (a towel to put on a towelholder) starts elsewhere.
  const notTarget = (r: Receptacle): boolean => isLook || r.cls !== goal.target;
  let goalHomes = homesOf(goal.object).filter(notTarget);
  if (goalHomes.length === 0) goalHomes = receptacles.filter(notTarget);
  const goalCount = goal.type === "pick_two_obj_and_place" ? rng.int(2, 3) : rng.int(1, 2);
  for (let i = 0; i < goalCount; i++) place(goal.object, goalHomes);

  const distractorClasses = rng.sample(
    Object.keys(objects).filter((cls) => cls !== goal.object && homesOf(cls).length > 0),
    rng.int(6, 10),
  );
  for (const cls of distractorClasses) {
    const homes = homesOf(cls);
    const count = rng.int(1, 2);
    for (let i = 0; i < count; i++) place(cls, homes);
  }

  return { receptacles, items, lamps, at: null, holding: null };
}

/** ALFWorld lists receptacles alphabetically by class, highest number first ("a cabinet 2, a cabinet 1, ..."). */
function alfworldOrder(a: Receptacle, b: Receptacle): number {
  if (a.cls !== b.cls) return a.cls < b.cls ? -1 : 1;
  return numberOf(b.name) - numberOf(a.name);
}

function numberOf(name: string): number {
  return Number(name.slice(name.lastIndexOf(" ") + 1));
}
