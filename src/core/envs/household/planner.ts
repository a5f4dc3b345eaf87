import { APPLIANCE, ROOM_LAMPS, ROOM_OBJECTS } from "./catalog";
import type { HouseholdGoal } from "./goal";
import { admissibleCommands } from "./rules";
import {
  goalObjectsIn,
  type Item,
  isAccessible,
  isTreatedFor,
  locationOf,
  type Receptacle,
  type World,
} from "./world";

/**
 * What the agent has seen so far: the receptacles whose contents (and lamps) it has observed. Only the agent
 * moves things, so a receptacle once seen is known for the rest of the episode.
 */
export interface Knowledge {
  seen: ReadonlySet<string>;
}

const TREATMENT_VERB = { microwave: "heat", fridge: "cool", sinkbasin: "clean" } as const;

/**
 * The expert's next command, re-planned from the true state at every step so that it recovers from whatever a
 * noisy policy did (a wrong object in hand, the goal object moved, heated then cooled, ...).
 *
 * With `knowledge`, it acts like ALFWorld's handcoded expert: it only uses objects and lamps it has seen, and
 * otherwise searches, the object's usual places first (fridge and countertops for an apple), opening closed ones.
 * Its trajectories then look like real play, with "you see nothing" and "is closed" in them, which is what the
 * replay buffer and the experience model must learn from. Without `knowledge` it is omniscient and walks straight
 * to the object (shortest demonstrations).
 */
export function expertCommand(world: World, goal: HouseholdGoal, knowledge?: Knowledge): string {
  const command = plan(world, goal, knowledge);
  // Never hand back an inadmissible command: a planning bug shows up as a failed episode, not a crash.
  return admissibleCommands(world).includes(command) ? command : "look";
}

function plan(world: World, goal: HouseholdGoal, knowledge: Knowledge | undefined): string {
  const held = world.holding === null ? undefined : world.items.get(world.holding);
  const known = (r: Receptacle): boolean => knowledge === undefined || knowledge.seen.has(r.name);

  if (goal.type === "look_at_obj_in_light") {
    if (!held) return fetchOrSearch(world, goal, goalItems(world, goal), known);
    if (held.cls !== goal.object) return putDown(world, goal);
    const lamps = world.lamps.filter((lamp) => lamp.cls === goal.target);
    const here = lamps.find((lamp) => lamp.at === world.at);
    if (here) return `use ${here.name}`;
    const lamp =
      lamps.find((l) => known(hostOf(world, l.at)) && l.on) ?? lamps.find((l) => known(hostOf(world, l.at)));
    if (lamp) return `go to ${lamp.at}`;
    const hosts = ROOM_LAMPS[goal.room.kind].find((spec) => spec.cls === goal.target)?.hosts ?? [];
    return search(world, goal, hosts, known);
  }

  const destination = chooseDestination(world, goal);
  if (!destination) return "look";
  if (held) {
    if (held.cls !== goal.object) return putDown(world, goal);
    if (!isTreatedFor(goal, held)) return treat(world, goal, held);
    return deliver(world, destination, held);
  }
  const onlyElsewhere = goal.type === "pick_two_obj_and_place";
  const candidates = goalItems(world, goal).filter(
    (item) => !onlyElsewhere || !destination.contents.includes(item.name),
  );
  return fetchOrSearch(world, goal, candidates, known);
}

function goalItems(world: World, goal: HouseholdGoal): Item[] {
  const out: Item[] = [];
  for (const item of world.items.values()) if (item.cls === goal.object) out.push(item);
  return out;
}

function hostOf(world: World, name: string): Receptacle {
  return world.receptacles.find((r) => r.name === name) as Receptacle;
}

/** For pick_two the target receptacle already holding the most goal objects; else the cheapest to reach. */
function chooseDestination(world: World, goal: HouseholdGoal): Receptacle | undefined {
  let best: Receptacle | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const r of world.receptacles) {
    if (r.cls !== goal.target) continue;
    const score =
      goalObjectsIn(world, goal, r) * 10 - (isAccessible(r) ? 0 : 1) + (r.name === world.at ? 1 : 0);
    if (score > bestScore) [best, bestScore] = [r, score];
  }
  return best;
}

/**
 * Take the cheapest known candidate (walk there, open its receptacle if closed); search when none is known.
 * Objects a noisy episode already treated come first: a step saved, and no need to treat another.
 */
function fetchOrSearch(
  world: World,
  goal: HouseholdGoal,
  candidates: readonly Item[],
  known: (r: Receptacle) => boolean,
): string {
  let best: Receptacle | undefined;
  let bestItem: Item | undefined;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const item of candidates) {
    const r = locationOf(world, item.name);
    if (!r || !known(r)) continue;
    const cost =
      (r.name === world.at ? 0 : 1) + (isAccessible(r) ? 0 : 1) + (isTreatedFor(goal, item) ? 0 : 2);
    if (cost < bestCost) [best, bestItem, bestCost] = [r, item, cost];
  }
  if (!best || !bestItem) return search(world, goal, ROOM_OBJECTS[goal.room.kind][goal.object] ?? [], known);
  if (world.at !== best.name) return `go to ${best.name}`;
  if (!isAccessible(best)) return `open ${best.name}`;
  return `take ${bestItem.name} from ${best.name}`;
}

/**
 * Visit the next unseen receptacle and open it if it is closed: those of the `likely` classes first, surfaces
 * before containers (one step to check instead of two), the target's own class last (a task never starts solved),
 * ties in the order the room lists them.
 */
function search(
  world: World,
  goal: HouseholdGoal,
  likely: readonly string[],
  known: (r: Receptacle) => boolean,
): string {
  let next: Receptacle | undefined;
  let nextRank = Number.POSITIVE_INFINITY;
  for (const r of world.receptacles) {
    if (known(r)) continue;
    const rank = r.cls === goal.target ? 4 : (likely.includes(r.cls) ? 0 : 2) + (r.openable ? 1 : 0);
    if (rank < nextRank) [next, nextRank] = [r, rank];
  }
  if (!next) return "look";
  return world.at === next.name ? `open ${next.name}` : `go to ${next.name}`;
}

function treat(world: World, goal: HouseholdGoal, held: Item): string {
  const applianceClass = APPLIANCE[goal.type];
  const appliance = world.receptacles.find((r) => r.cls === applianceClass);
  if (!applianceClass || !appliance) return "look";
  if (world.at !== appliance.name) return `go to ${appliance.name}`;
  return `${TREATMENT_VERB[applianceClass]} ${held.name} with ${appliance.name}`;
}

function deliver(world: World, destination: Receptacle, held: Item): string {
  if (world.at !== destination.name) return `go to ${destination.name}`;
  if (!isAccessible(destination)) return `open ${destination.name}`;
  return `put ${held.name} in/on ${destination.name}`;
}

/** Gets rid of an object the goal does not need (a noisy step picked it up): put it where we stand, or nearby. */
function putDown(world: World, goal: HouseholdGoal): string {
  const here = world.receptacles.find((r) => r.name === world.at);
  if (here) return isAccessible(here) ? `put ${world.holding} in/on ${here.name}` : `open ${here.name}`;
  const spot = world.receptacles.find((r) => !r.openable && r.cls !== goal.target) ?? world.receptacles[0];
  return spot ? `go to ${spot.name}` : "look";
}
