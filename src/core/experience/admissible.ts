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
 * or "click[b01]" and "click[b02]", count as the same kind of action. Buttons with fixed names keep them:
 * "click[buy now]" stays itself (a multi-word or non-code argument is part of the verb).
 */
export function actionTemplate(action: string): string {
  const a = normaliseAction(action);
  const bracket = /^([a-z_]+)\[(.*)\]$/.exec(a);
  if (bracket) {
    const [, verb, arg = ""] = bracket;
    if (verb === "search") return "search[*]";
    // Item codes and numbered elements are arguments; named buttons ("buy now", "next >") are the action itself.
    return /\d/.test(arg) ? `${verb}[*]` : a;
  }
  const words = a.split(" ");
  // "take apple 1 from countertop 1" -> "take * from *": keep the verb and the prepositions.
  const keep = new Set(["from", "in", "on", "in/on", "with", "to", "at"]);
  const out: string[] = [];
  for (const [i, w] of words.entries()) {
    if (i === 0 || keep.has(w)) out.push(w);
    else if (out[out.length - 1] !== "*") out.push("*");
  }
  return out.join(" ");
}
