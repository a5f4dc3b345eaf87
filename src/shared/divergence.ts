import { elements, REWARD_TOLERANCE, words } from "@/core/experience/fidelity";

// In src/shared because the step view, the flagged list and the gamed view (server/gamed) must agree on where a
// prediction departs from the real answer. No domain's rules here: pages are compared by their elements and by
// the choices they offer, whatever the domain writes in them.

/** The ways a prediction can depart from the real answer in a way that matters to the agent. */
export const DIVERGENCE_REASONS = ["elements", "choices", "reward", "end", "validity"] as const;
export type DivergenceReason = (typeof DIVERGENCE_REASONS)[number];
export type Divergence = Record<DivergenceReason, boolean> & { any: boolean };

export interface Answer {
  text: string;
  /** The admissible actions, where the domain lists them. */
  actions?: readonly string[] | undefined;
  reward: number;
  done: boolean;
  valid: boolean;
}

/**
 * The elements of a page as a set ([SEP] fields, lines, sentences, comma parts; words only, without articles).
 */
export function elementSet(text: string): Set<string> {
  return new Set(elements(text));
}

const FILLER = new Set(["a", "an", "the", "and"]);

/** The page's salient words as a bag (sorted): every word but articles, counted, in no order. */
function wordBag(text: string): string {
  return words(text)
    .filter((w) => !FILLER.has(w))
    .sort()
    .join(" ");
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/**
 * Whether two pages show the same elements: the same set of elements, or the same salient words in another order
 * (a list reordered inside a sentence moves words between comma parts). Case, spacing, punctuation and the order of
 * unchanged text are cosmetic; an element added, lost or changed (a product, a price, an object in a room) is not.
 */
export function sameElements(a: string, b: string): boolean {
  return sameSet(elementSet(a), elementSet(b)) || wordBag(a) === wordBag(b);
}

/** What an action acts on: the argument in brackets ("click[b01]" → "b01"), else the words after its verb. */
function actionObject(action: string): string[] {
  const bracket = /\[(.*)\]\s*$/.exec(action);
  return words(bracket ? (bracket[1] ?? "") : action.trim().split(/\s+/).slice(1).join(" "));
}

/**
 * Whether a page offers the same choices: with both lists, as sets (case and spacing aside). With one side's list
 * only (the real answer keeps its text alone), whether every listed choice that acts on something its own page
 * shows acts on something the other page shows too: a product, option or object the model offers and the real
 * page lacks counts. Choices on nothing the page shows (a free-text slot "search[...]", a fixed button, "look")
 * cannot be told from the text and do not count.
 */
export function sameChoices(predicted: Answer, real: Answer): boolean {
  const norm = (a: string) => words(a).join(" ");
  if (predicted.actions && real.actions)
    return sameSet(new Set(predicted.actions.map(norm)), new Set(real.actions.map(norm)));
  const listed = predicted.actions ?? real.actions;
  if (!listed) return true;
  const own = new Set(words(predicted.actions ? predicted.text : real.text));
  const other = new Set(words(predicted.actions ? real.text : predicted.text));
  return listed.every((action) => {
    const object = actionObject(action);
    if (object.length === 0 || !object.every((w) => own.has(w))) return true;
    return object.every((w) => other.has(w));
  });
}

/** Where a prediction departs from the real answer in what matters: the elements, the choices, reward, end, validity. */
export function divergence(predicted: Answer, real: Answer): Divergence {
  const reasons = {
    elements: !sameElements(predicted.text, real.text),
    choices: !sameChoices(predicted, real),
    reward: Math.abs(predicted.reward - real.reward) > REWARD_TOLERANCE,
    end: predicted.done !== real.done,
    validity: predicted.valid !== real.valid,
  };
  return { ...reasons, any: Object.values(reasons).some(Boolean) };
}

/** A stored action list (Step.nextActions, JSON) as strings, or undefined where the domain lists none. */
export function actionList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length > 0
    ? value.filter((v): v is string => typeof v === "string")
    : undefined;
}
