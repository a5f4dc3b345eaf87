/**
 * ALFWorld's command grammar. Text from a policy is parsed into a Command and written back in one canonical form,
 * so "put apple 1 on fridge 1", "Put apple 1 in fridge 1." and "put apple 1 in/on fridge 1" are the same action
 * and admissibility is a plain set lookup on canonical strings.
 */
export type Command =
  | { verb: "go to"; target: string }
  | { verb: "open" | "close" | "examine" | "use"; target: string }
  | { verb: "take"; object: string; from: string }
  | { verb: "put"; object: string; target: string }
  | { verb: "heat" | "cool" | "clean"; object: string; appliance: string }
  | { verb: "inventory" | "look" };

/** An ALFWorld entity name: a class word and an instance number ("cabinet 3"). */
const ENTITY = "([a-z]+ \\d+)";

const GO = new RegExp(`^go to ${ENTITY}$`);
const UNARY = new RegExp(`^(open|close|examine|use) ${ENTITY}$`);
const TAKE = new RegExp(`^take ${ENTITY} from ${ENTITY}$`);
// "move X to Y" is the spelling of newer ALFWorld releases; it means the same as put.
const PUT = new RegExp(`^(?:put ${ENTITY} (?:in/on|in|on)|move ${ENTITY} to) ${ENTITY}$`);
const TREAT = new RegExp(`^(heat|cool|clean) ${ENTITY} with ${ENTITY}$`);

export function normalizeText(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ").replace(/\.$/, "");
}

export function parseCommand(text: string): Command | null {
  const line = normalizeText(text);
  if (line === "inventory" || line === "look") return { verb: line };
  let m = GO.exec(line);
  if (m) return { verb: "go to", target: m[1] as string };
  m = UNARY.exec(line);
  if (m) return { verb: m[1] as "open" | "close" | "examine" | "use", target: m[2] as string };
  m = TAKE.exec(line);
  if (m) return { verb: "take", object: m[1] as string, from: m[2] as string };
  m = PUT.exec(line);
  if (m) return { verb: "put", object: (m[1] ?? m[2]) as string, target: m[3] as string };
  m = TREAT.exec(line);
  if (m)
    return { verb: m[1] as "heat" | "cool" | "clean", object: m[2] as string, appliance: m[3] as string };
  return null;
}

export function formatCommand(command: Command): string {
  switch (command.verb) {
    case "inventory":
    case "look":
      return command.verb;
    case "go to":
    case "open":
    case "close":
    case "examine":
    case "use":
      return `${command.verb} ${command.target}`;
    case "take":
      return `take ${command.object} from ${command.from}`;
    case "put":
      return `put ${command.object} in/on ${command.target}`;
    case "heat":
    case "cool":
    case "clean":
      return `${command.verb} ${command.object} with ${command.appliance}`;
  }
}

/** The canonical spelling of a command, or null when the text is not in the grammar. */
export function canonicalCommand(text: string): string | null {
  const command = parseCommand(text);
  return command ? formatCommand(command) : null;
}
