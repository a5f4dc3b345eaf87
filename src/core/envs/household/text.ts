import type { Receptacle, World } from "./world";

/**
 * ALFWorld's phrasing. It says "a apple 1" (never "an") and puts a comma before "and" even for two things;
 * policies trained on ALFWorld transcripts expect exactly that.
 */
export function listThings(names: readonly string[]): string {
  if (names.length === 0) return "nothing";
  if (names.length === 1) return `a ${names[0]}`;
  const head = names.slice(0, -1).map((name) => `a ${name}`);
  return `${head.join(", ")}, and a ${names[names.length - 1]}`;
}

export function roomOverview(world: World): string {
  const names = world.receptacles.map((r) => r.name);
  return `You are in the middle of a room. Looking quickly around you, you see ${listThings(names)}.`;
}

/** What the agent sees of a receptacle on arriving or examining: closed, or its contents (and lamps). */
export function describeReceptacle(world: World, r: Receptacle): string {
  if (r.openable && !r.open) return `The ${r.name} is closed.`;
  const deskLamps: string[] = [];
  const floorLamps: string[] = [];
  for (const lamp of world.lamps) {
    if (lamp.at !== r.name) continue;
    (lamp.cls === "floorlamp" ? floorLamps : deskLamps).push(lamp.name);
  }
  const visible = deskLamps.length === 0 ? r.contents : [...r.contents, ...deskLamps];
  const contents = r.openable
    ? `The ${r.name} is open. In it, you see ${listThings(visible)}.`
    : `On the ${r.name}, you see ${listThings(visible)}.`;
  return floorLamps.length === 0 ? contents : `${contents} Next to it, you see ${listThings(floorLamps)}.`;
}

export function describeLook(world: World): string {
  if (world.at === null) return roomOverview(world);
  const nearby = world.lamps.filter((lamp) => lamp.at === world.at && lamp.cls === "floorlamp");
  return `You are facing the ${world.at}. Next to it, you see ${listThings(nearby.map((lamp) => lamp.name))}.`;
}

/** The short status line appended to every observation, so a single observation says where the agent is. */
export function statusLine(world: World): string {
  return `[location: ${world.at ?? "middle of the room"} | holding: ${world.holding ?? "nothing"}]`;
}

/**
 * ALFWorld answers "examine" on an object with "There's nothing special about ..."; here a treated object also
 * says so, because heat/cool/clean leave no other trace in the text and a text-only agent could not check them.
 */
export function describeItem(world: World, name: string): string {
  const item = world.items.get(name);
  const states = item ? [item.hot && "hot", item.cool && "cool", item.clean && "clean"].filter(Boolean) : [];
  if (states.length === 0) return `There's nothing special about ${name}.`;
  return `This is a ${states.join(" and ")} ${name}.`;
}
