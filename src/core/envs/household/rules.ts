import { type Command, canonicalCommand, parseCommand } from "./grammar";
import { describeItem, describeLook, describeReceptacle, listThings } from "./text";
import { isAccessible, receptacleNamed, type World } from "./world";

/** The appliance class each treatment verb needs, as in ALFWorld's PDDL (heat: microwave, ...). */
const TREATMENT_APPLIANCE = { heat: "microwave", cool: "fridge", clean: "sinkbasin" } as const;

export const NOTHING_HAPPENS = "Nothing happens.";

/**
 * Every command possible in this state, canonically spelled (ALFWorld's admissible_commands). This list is the
 * single source of truth for validity: an action is valid exactly when its canonical form is in it.
 */
export function admissibleCommands(world: World): string[] {
  const out: string[] = [];
  for (const r of world.receptacles) if (r.name !== world.at) out.push(`go to ${r.name}`);
  const here = world.at === null ? undefined : receptacleNamed(world, world.at);
  if (here) {
    if (here.openable) out.push(`${here.open ? "close" : "open"} ${here.name}`);
    if (isAccessible(here)) {
      if (world.holding === null)
        for (const name of here.contents) out.push(`take ${name} from ${here.name}`);
      else out.push(`put ${world.holding} in/on ${here.name}`);
    }
    if (world.holding !== null) {
      for (const verb of ["heat", "cool", "clean"] as const) {
        if (here.cls === TREATMENT_APPLIANCE[verb]) out.push(`${verb} ${world.holding} with ${here.name}`);
      }
    }
    for (const lamp of world.lamps) if (lamp.at === here.name) out.push(`use ${lamp.name}`);
    out.push(`examine ${here.name}`);
  }
  if (world.holding !== null) out.push(`examine ${world.holding}`);
  out.push("inventory", "look");
  return out;
}

export interface ActionOutcome {
  valid: boolean;
  message: string;
}

/**
 * Applies one text action to the world (mutating it) and returns ALFWorld's feedback. Inadmissible or
 * unparseable actions change nothing and answer "Nothing happens.". Pass the state's admissible list when it is
 * already at hand, to save recomputing it.
 */
export function applyAction(world: World, text: string, admissible?: readonly string[]): ActionOutcome {
  const canonical = canonicalCommand(text);
  if (canonical === null || !(admissible ?? admissibleCommands(world)).includes(canonical)) {
    return { valid: false, message: NOTHING_HAPPENS };
  }
  return { valid: true, message: execute(world, parseCommand(canonical) as Command) };
}

/** Carries out an admissible command; preconditions were checked against the admissible list. */
function execute(world: World, command: Command): string {
  switch (command.verb) {
    case "go to": {
      world.at = command.target;
      const r = receptacleNamed(world, command.target);
      return r ? `You arrive at ${r.name}. ${describeReceptacle(world, r)}` : NOTHING_HAPPENS;
    }
    case "open": {
      const r = receptacleNamed(world, command.target);
      if (!r) return NOTHING_HAPPENS;
      r.open = true;
      return `You open the ${r.name}. ${describeReceptacle(world, r)}`;
    }
    case "close": {
      const r = receptacleNamed(world, command.target);
      if (!r) return NOTHING_HAPPENS;
      r.open = false;
      return `You close the ${r.name}.`;
    }
    case "take": {
      const r = receptacleNamed(world, command.from);
      if (!r) return NOTHING_HAPPENS;
      r.contents.splice(r.contents.indexOf(command.object), 1);
      world.holding = command.object;
      return `You pick up the ${command.object} from the ${r.name}.`;
    }
    case "put": {
      const r = receptacleNamed(world, command.target);
      if (!r) return NOTHING_HAPPENS;
      r.contents.push(command.object);
      world.holding = null;
      return `You put the ${command.object} in/on the ${r.name}.`;
    }
    case "heat":
    case "cool":
    case "clean": {
      const item = world.items.get(command.object);
      if (!item) return NOTHING_HAPPENS;
      // Hot and cool exclude each other, as ALFRED's temperature is one property.
      if (command.verb === "heat") [item.hot, item.cool] = [true, false];
      else if (command.verb === "cool") [item.hot, item.cool] = [false, true];
      else item.clean = true;
      return `You ${command.verb} the ${item.name} using the ${command.appliance}.`;
    }
    case "use": {
      const lamp = world.lamps.find((l) => l.name === command.target);
      if (!lamp) return NOTHING_HAPPENS;
      lamp.on = true;
      return `You turn on the ${lamp.name}.`;
    }
    case "examine": {
      const r = receptacleNamed(world, command.target);
      return r ? describeReceptacle(world, r) : describeItem(world, command.target);
    }
    case "inventory":
      return world.holding === null
        ? "You are not carrying anything."
        : `You are carrying: ${listThings([world.holding])}.`;
    case "look":
      return describeLook(world);
  }
}
