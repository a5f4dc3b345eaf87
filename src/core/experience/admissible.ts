import type { Observation } from "../types";

/** An entry such as "search[...]": the domain admits any non-empty argument for this verb. */
const TEMPLATE = /^\s*([^[\]]+?)\s*\[\s*\.\.\.\s*\]\s*$/;

/**
 * Whether an action is among a state's admissible actions; undefined when the domain does not list them (the
 * model alone decides then). Lenient on case and spacing, as the real environments are, so that an action is
 * only ruled out when it is surely impossible.
 */
export function isAdmissible(action: string, admissible: readonly string[] | undefined): boolean | undefined {
  if (!admissible || admissible.length === 0) return undefined;
  const wanted = normaliseAction(action);
  return admissible.some((entry) => {
    const template = TEMPLATE.exec(entry);
    if (!template) return normaliseAction(entry) === wanted;
    const prefix = `${normaliseAction(template[1] ?? "")}[`;
    return (
      wanted.startsWith(prefix) && wanted.endsWith("]") && wanted.slice(prefix.length, -1).trim().length > 0
    );
  });
}

export function normaliseAction(action: string): string {
  return action.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * The action's verb pattern: arguments replaced by a placeholder, so that "open cabinet 2" and "open drawer 1",
 * or "click[b01]" and "click[b02]", count as the same kind of action. Read from the action's own shape, no
 * domain's words: in "verb[argument]", an argument with a digit (a code, a numbered element) is a placeholder,
 * as is any argument of a verb that the state admits with any argument ("verb[...]"); a named button ("buy now")
 * is part of the verb. In words, a numbered name ("apple 1") is an argument and the words between them (the
 * verb, the prepositions) are the pattern: "take apple 1 from table 1" -> "take * from *". In a call, the values
 * are arguments and the name and keys the pattern: "get(id=3)" -> "get(id=*)".
 */
export function actionTemplate(action: string, state?: Observation): string {
  return actionParts(action, state).template;
}

/** The action's kind (actionTemplate) and its arguments, in order: "cabinet 1" of "go to cabinet 1". */
export function actionParts(action: string, state?: Observation): { template: string; args: string[] } {
  const a = normaliseAction(action);
  const bracket = /^([^\s[\]]+)\[(.*)\]$/.exec(a);
  if (bracket) {
    const [, verb, arg = ""] = bracket;
    const free = state?.actions?.some((entry) => TEMPLATE.exec(entry)?.[1]?.trim().toLowerCase() === verb);
    return free || /\d/.test(arg) ? { template: `${verb}[*]`, args: [arg] } : { template: a, args: [] };
  }
  const call = /^([a-z_][\w.]*)\s*\((.*)\)$/s.exec(a);
  if (call) {
    // A call ("list_files(folder=\"/notes\")"): its argument values are the arguments, its name and keys the kind.
    const [, name, inside = ""] = call;
    const parts = [...inside.matchAll(/\s*(?:([\w.]+)\s*=\s*)?("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,]+)/g)];
    return {
      template: `${name}(${parts.map((m) => (m[1] ? `${m[1]}=*` : "*")).join(", ")})`,
      args: parts.map((m) => m[2]!.trim()),
    };
  }
  const words = a.split(" ");
  const out: string[] = [];
  const args: string[] = [];
  for (const [i, w] of words.entries()) {
    const named = i > 0 && /^\d+$/.test(words[i + 1] ?? "");
    const number = i > 0 && /^\d+$/.test(w) && out[out.length - 1] === "*";
    if (named || number) {
      if (out[out.length - 1] !== "*") {
        out.push("*");
        args.push(w);
      } else args[args.length - 1] = `${args[args.length - 1]} ${w}`;
    } else out.push(w);
  }
  return { template: out.join(" "), args };
}
