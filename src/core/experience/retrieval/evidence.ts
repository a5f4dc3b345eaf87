import { LRUCache } from "lru-cache";
import type { Observation } from "../../types";
import { literalPattern } from "../../util/regex";
import { contentWords } from "../../util/words";
import { actionParts } from "../admissible";
import { segmentsOf } from "../segments";
import { labelledParts } from "./frames";

/**
 * How much of the task instruction a situation already satisfies: the share of the instruction's requirements
 * that the state and action show met, less the ones they show broken. Outcome rewards depend on exactly this (the
 * right product with the right options at the right price; the right object in the right place), so
 * demonstrations with similar evidence are the best guide to the reward of the current step. It reads only what
 * an LLM experience model reads: the instruction, the state and the action.
 */
const ARGUMENT = /^[a-z_]+\[(.*)\]$/i;

/**
 * An upper bound an instruction may set on amounts its pages show, as its domain declares it (core/envs
 * `DomainDeclarations`): no demonstration says which words of an instruction bound which numbers of a page.
 * Compiled once per declaration.
 */
export interface AmountBound {
  /** Finds the bound in an instruction: the number is the first capture group that matched. */
  instruction: RegExp;
  /** Finds every amount on a page (global): the number is the first capture group that matched. */
  amount: RegExp;
}

export function compileAmountBound(declared: { instruction: string; amount: string }): AmountBound {
  return { instruction: new RegExp(declared.instruction, "i"), amount: new RegExp(declared.amount, "gi") };
}

function firstGroup(match: RegExpExecArray | RegExpMatchArray): string | undefined {
  return match.slice(1).find((g) => g !== undefined);
}

/**
 * The choices a page offers: a segment followed by buttons is the name of a group of options ("color", then the
 * buttons "red" and "camo"). Pages without such runs (prose states, result lists of ids) offer none that matter.
 */
export function choiceGroups(
  segments: string[],
  buttons: Set<string>,
): { name: string; options: string[] }[] {
  const groups: { name: string; options: string[] }[] = [];
  let current: { name: string; options: string[] } | undefined;
  for (const segment of segments) {
    if (!buttons.has(segment)) {
      current = { name: segment, options: [] };
      groups.push(current);
    } else if (current && segment.length >= 2) current.options.push(segment);
  }
  return groups.filter((g) => g.options.length > 0);
}

/**
 * The named groups of options a page offers ("size" → small, large), lower-cased: what a domain's choices are
 * called and which values each group can take. A label ("Rating: 4.1" before the page's buttons), a price before
 * a listing's next entry or a sentence (the instruction before "Back to Search") names no group.
 */
export function pageChoices(page: Observation): { name: string; options: string[] }[] {
  return choiceGroups(pageSegments(page), buttonLabels(page)).filter((g) => GROUP_NAME.test(g.name));
}

/** What a page's buttons say, lower-cased: "click[Navy]" → "navy". */
function buttonLabels(page: Observation): Set<string> {
  return new Set((page.actions ?? []).map((a) => (ARGUMENT.exec(a)?.[1] ?? a).trim().toLowerCase()));
}

/** A page's text in its segments (at its own marker and at line ends), lower-cased, empty ones dropped. */
function pageSegments(page: Observation): string[] {
  return segmentsOf(page.text)
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
}

/** A page of records lists several, one to a line; fewer lines are prose and its status line. */
const MIN_RECORD_LINES = 3;

/**
 * The lines of a page that the action names, when the page lists several records one to a line and the action
 * names some of them by an argument (an id, a path): what such an action satisfies of the instruction is what
 * those records say, not what the rest of the page does. Closing ticket 241 from a list that also shows the
 * ticket the request describes satisfies nothing of the request; read off the whole page, both closes looked
 * alike. Undefined for pages of one or two lines (prose, a status line) and for actions naming nothing on them,
 * which are read whole.
 */
export function referentLines(
  page: Observation,
  action: string,
  echo: string,
): { named: string[]; others: string[]; headers: string[] } | undefined {
  const lines = page.text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && line.toLowerCase() !== echo);
  if (lines.length < MIN_RECORD_LINES) return undefined;
  const valuesOf = (a: string) =>
    actionParts(a, page)
      .args.map((arg) =>
        arg
          .replace(/^["']|["']$/g, "")
          .trim()
          .toLowerCase(),
      )
      .filter((arg) => arg.length > 0);
  const args = valuesOf(action);
  if (args.length === 0) return undefined;
  const names = (line: string, values: readonly string[]) =>
    values.some((value) => mentions(line.toLowerCase(), value));
  const named = lines.filter((line) => names(line, args));
  if (named.length === 0 || named.length === lines.length) return undefined;
  // Where the page lists what can be done on it, a line that names nothing any of its actions acts on is no
  // record but what the page is about ("follow-up notes of …", "… found 3 tickets"): it holds for every record.
  const acted = page.actions ? page.actions.flatMap(valuesOf) : undefined;
  const rest = lines.filter((line) => !named.includes(line));
  return {
    named,
    others: acted ? rest.filter((line) => names(line, acted)) : rest,
    headers: acted ? rest.filter((line) => !names(line, acted)) : [],
  };
}

/** Steps of an episode's trace: the latest, where a long episode's start has long been acted on. */
const TRACE_STEPS = 30;

/** An action's verb: its first word ("heat" of "heat egg 1 with microwave 1", "close_ticket" of a call). */
export function verbOf(action: string): string | undefined {
  return /^[a-z_]+/.exec(action.trim().toLowerCase())?.[0];
}

/**
 * What an action's verb does of an instruction's words where the page at the end of an episode does not show it,
 * learnt from the offline data (OfflineMemory.fulfils): "hot" is done by "heat …", "cool" by "cool …".
 */
export interface Fulfils {
  /** Verb → the request's words it does ("heat" → "hot"; "put again" → "two"). */
  readonly does: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Verb → the argument places at which its uses made again in the successful real episodes nearly always differed
   * (the book of "put book 1 …" and "put book 2 …", not the dresser both went on): a use made again counts only on
   * other things there. Without it one fork put in one drawer, taken back and put in another did the "two".
   */
  readonly apart: ReadonlyMap<string, readonly number[]>;
}

/** What marks a verb used again in an episode, in what fulfils ("put again" → "two"); no verb has a space. */
export const AGAIN = " again";

/**
 * A use of a verb, told apart by the request's words its action names: "put book 1 in/on dresser 1" and "put book 2
 * in/on dresser 1" are one use made twice; putting a keychain on a shelf is another use.
 */
function actsOn(action: string, words: ReadonlySet<string>): string | undefined {
  const verb = verbOf(action);
  if (verb === undefined) return undefined;
  const named = [
    ...new Set(
      contentWords(action)
        .map(stem)
        .filter((w) => words.has(w)),
    ),
  ].sort();
  return `${verb}\u0000${named.join(" ")}`;
}

/** A word without a plural's ending: a request asks for "cogs" where its actions name a "cog". */
function stem(word: string): string {
  return word.length > 3 ? word.replace(/e?s$/, "") : word;
}

/** The request's words as actsOn compares them. */
function stems(instruction: string): Set<string> {
  return new Set(contentWords(instruction).map(stem));
}

/** An action that acts on the request's words (actsOn), with its verb and its arguments, lower-cased. */
interface Deed {
  acted: string;
  verb: string;
  args: string[];
}

/** The actions that are uses (actsOn) of the request's words, in order: what usedAgain and repeatsOf read. */
function deedsOf(actions: readonly string[], words: ReadonlySet<string>): Deed[] {
  return actions.flatMap((action) => {
    const acted = actsOn(action, words);
    if (acted === undefined) return [];
    const args = actionParts(action).args.map((a) => a.toLowerCase());
    return [{ acted, verb: verbOf(action) ?? "", args }];
  });
}

/**
 * The uses (actsOn) made twice or more and still standing: a verb is used again (AGAIN) where one of its uses is
 * among them. Counted by verb alone, putting the first book down and then anything anywhere did the "two" of "find
 * two books and put them on the dresser", and a policy trained on the model learnt to end "two" requests that way.
 * A use is undone by a later action of another verb on the very same arguments (taking the statue back from the
 * dresser it was put on): otherwise one statue put down, taken back and put down again did the "two". Two uses
 * count as two only where their arguments differ at every place the verb's uses made again differed in the real
 * episodes (`apart`): taking the one fork from one place after another is not taking two forks.
 */
function usedAgain(
  actions: readonly string[],
  words: ReadonlySet<string>,
  apart?: ReadonlyMap<string, readonly number[]>,
): Set<string> {
  const standing: (Deed & { on: string })[] = [];
  for (const { acted, verb, args } of deedsOf(actions, words)) {
    const on = [...args].sort().join("\u0000");
    if (args.length > 0)
      for (let i = standing.length - 1; i >= 0; i--)
        if (standing[i]!.on === on && standing[i]!.verb !== verb) standing.splice(i, 1);
    standing.push({ acted, verb, on: args.length > 0 ? on : "", args });
  }
  const again = new Set<string>();
  for (const [i, made] of standing.entries()) {
    if (again.has(made.acted)) continue;
    const places = apart?.get(made.verb) ?? [];
    const other = standing
      .slice(i + 1)
      .some((u) => u.acted === made.acted && places.every((p) => u.args[p] !== made.args[p]));
    if (other) again.add(made.acted);
  }
  return again;
}

/**
 * Where two uses of one verb on the same words of a request differ: the argument places whose values are not the
 * same ("put book 1 in/on dresser 1" and "put book 2 in/on dresser 1" differ at 0). What fulfils.ts counts to learn
 * `Fulfils.apart`.
 */
export function repeatsOf(
  actions: readonly string[],
  instruction: string,
): { verb: string; differ: number[] }[] {
  const last = new Map<string, string[]>();
  const out: { verb: string; differ: number[] }[] = [];
  for (const { acted, verb, args } of deedsOf(actions, stems(instruction))) {
    const before = last.get(acted);
    if (before) {
      const differ: number[] = [];
      for (let p = 0; p < Math.max(args.length, before.length); p++)
        if (args[p] !== before[p]) differ.push(p);
      out.push({ verb, differ });
    }
    last.set(acted, args);
  }
  return out;
}

/** The verbs an episode's actions used, and each used again (usedAgain) marked so ("put" and "put again"). */
export function verbsUsed(actions: readonly string[], instruction: string): Set<string> {
  const words = stems(instruction);
  const again = usedAgain(actions, words);
  const verbs = new Set<string>();
  for (const action of actions) {
    const verb = verbOf(action) ?? "";
    if (verb === undefined) continue;
    verbs.add(verb);
    if (again.has(actsOn(action, words) ?? "")) verbs.add(`${verb}${AGAIN}`);
  }
  return verbs;
}

/**
 * One step of an episode's trace, or undefined for a step that counts for nothing there: a valid action that
 * named records on its page, with those records (the file it read is the one on the line with its path, the ticket
 * it closed the one on its line); or a valid action whose verb does what a word of the instruction asks, with that
 * word (heating the egg, for "put a hot egg …").
 */
function traceLine(
  step: { state: Observation; action: string; valid: boolean },
  words: ReadonlySet<string>,
  fulfils: Fulfils | undefined,
  /** Whether the episode uses this step's verb more than once. */
  repeated: boolean,
): string | undefined {
  if (!step.valid) return undefined;
  // Records picked from among others: a line naming every place there is (a room's first page) picks nothing.
  const referent = referentLines(step.state, step.action, "");
  if (referent && referent.others.length > 0) return [step.action, ...referent.named].join("\n");
  const verb = verbOf(step.action);
  const does = [
    ...(verb === undefined ? [] : (fulfils?.does.get(verb) ?? [])),
    ...(verb !== undefined && repeated ? (fulfils?.does.get(`${verb}${AGAIN}`) ?? []) : []),
  ];
  const done = [...new Set(does)].filter((w) => words.has(w));
  return done.length > 0 ? `${step.action} (${done.join(" ")})` : undefined;
}

/**
 * What an episode did before a step, as the evidence of the step's outcome reads it (traceLine). An ending is
 * paid for what the whole episode did (a request of two changes ends well only after both; a ticket is the one some
 * notes mark as done only if the notes read were the ones asked for; an egg put down is a hot egg only if it was
 * heated), and where a page does not tell all of the state, the page at the end does not show it. Walking from
 * place to place does nothing the request names: read with every step, a household episode's ending was graded
 * by how much of the request its wandering had named, and the policy learnt to please the model (validation, seeds
 * 0 and 1: 48 / 36 against 54 / 47 without). The pages themselves are left out: a list shows every record,
 * whichever the agent then picked.
 */
export function episodeTrace(
  steps: readonly { state: Observation; action: string; valid: boolean }[],
  instruction = "",
  fulfils?: Fulfils,
  /** The action of the step the trace is read for: a verb it uses again marks the earlier uses (AGAIN). */
  action?: string,
): string {
  const words = new Set(contentWords(instruction));
  const named = stems(instruction);
  const again = usedAgain(
    [...steps.filter((s) => s.valid).map((s) => s.action), ...(action ? [action] : [])],
    named,
    fulfils?.apart,
  );
  return steps
    .slice(-TRACE_STEPS)
    .flatMap((step) => {
      const line = traceLine(step, words, fulfils, again.has(actsOn(step.action, named) ?? ""));
      return line === undefined ? [] : [line];
    })
    .join("\n");
}

/**
 * A record of the page, other than those the action names, that says more of what the instruction asks: the
 * action acts on the wrong record (cancelling the design sync when the quarterly review was asked for, on a day
 * that lists both). Counted in the instruction's content words each line contains.
 */
function betterRecord(
  referent: { named: readonly string[]; others: readonly string[] },
  words: string[],
): string | undefined {
  const fitOf = (line: string) => {
    const seen = new Set(contentWords(line));
    return words.filter((w) => seen.has(w)).length;
  };
  const own = Math.max(...referent.named.map(fitOf));
  let best: { line: string; fit: number } | undefined;
  for (const line of referent.others) {
    const f = fitOf(line);
    if (f > own && (!best || f > best.fit)) best = { line, fit: f };
  }
  return best?.line;
}

/**
 * Whether an action that names records of a list names the one that fits the instruction best (true), another
 * (false), or names none (undefined): what an action that picks from a list has to do with the request.
 */
export function namesBestRecord(page: Observation, action: string, instruction: string): boolean | undefined {
  const referent = referentLines(page, action, instruction.trim().toLowerCase());
  return referent && betterRecord(referent, contentWords(instruction)) === undefined;
}

/** Group names are a word or two ("size", "sun protection"), not a price, a label or a title before a button. */
const GROUP_NAME = /^[a-z]+(?: [a-z]+){0,2}$/;

/**
 * The values a group of options takes across the domain (learnt from the demonstrations' pages, OfflineMemory):
 * the knowledge that "navy" is a color, which lets a model see that an instruction asks for a color a page does
 * not offer.
 */
export type OptionVocabulary = (group: string) => ReadonlySet<string> | undefined;

/** Option labels and group names recur on every page of a domain: each is compiled once. */
const phrasePatterns = new LRUCache<string, RegExp>({ max: 20_000 });

/** A phrase as a whole word group: "small" is not in "x-small", "set of 2" is not in "set of 20". */
function mentions(text: string, phrase: string): boolean {
  let pattern = phrasePatterns.get(phrase);
  if (!pattern) {
    const escaped = literalPattern(phrase);
    pattern = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`);
    phrasePatterns.set(phrase, pattern);
  }
  return pattern.test(text);
}

export interface GoalEvidence {
  /** The instruction's requirements: its content words, and its price bound if it states one. */
  requirements: number;
  /** Requirements the situation shows met: content words in view, a price in view within the bound. */
  met: number;
  /**
   * Requirements the situation shows broken: a price in view above the bound; in a group of options the
   * instruction speaks of, a choice made (an option's label shown outside its button, as in "Selected: color:
   * camo") that it does not ask for, or none of those it asks for made; a group that does not offer the value the
   * instruction asks of it (with a vocabulary: "navy" is a color, and this page's colors are black and camo).
   */
  broken: string[];
  /** (met − broken) / requirements, in [0, 1]. */
  score: number;
}

/** What a step's evidence reads: the page's segments it counts, and all of it with the action and trace as one text. */
function situationOf(instruction: string, state: Observation, action: string, earlier: string | undefined) {
  const goal = instruction.toLowerCase();
  const buttons = buttonLabels(state);
  const echo = goal.trim();
  const referent = referentLines(state, action, echo);
  // Where pages do not tell all of the state (`earlier` is given) and the action names no record of the page, what
  // the page merely shows is not what the episode did: a kettle in view does not make putting a cup down the
  // kettle's. Only the parts that say what the agent has and where it is count, with the episode's trace.
  const focus = referent
    ? [...referent.headers, ...referent.named].join("\n")
    : earlier !== undefined
      ? labelledParts(state.text).join("\n") || undefined
      : undefined;
  const segments = pageSegments(focus === undefined ? state : { ...state, text: focus }).filter(
    (s) => s !== echo,
  );
  const kept = segments.filter((s) => !buttons.has(s)).map((s) => s.replaceAll(echo, " "));
  const before = earlier === undefined ? "" : earlier.toLowerCase().replaceAll(echo, " ");
  const situation = `${kept.join("\n")}\n${action.toLowerCase()}\n${before}`;
  return { referent, segments, kept, situation, buttons };
}

/** The words of an instruction that a step's situation shows (as goalEvidence reads it). */
export function wordsShown(
  instruction: string,
  state: Observation,
  action: string,
  earlier: string | undefined,
): { words: string[]; shown: Set<string> } {
  const seen = new Set(contentWords(situationOf(instruction, state, action, earlier).situation));
  const words = contentWords(instruction);
  return { words, shown: new Set(words.filter((w) => seen.has(w))) };
}

/**
 * The evidence of a step: what of the instruction the state and action show met or broken. The state is read
 * without the instruction it echoes (WebShop repeats it on every page, which would make every state look like
 * it satisfies the goal) and without the segments that are only buttons (an option you could click is not an
 * option you chose).
 *
 * Checking the requirements one by one (the price against the bound, each group of options against what the
 * instruction asks) is the reasoning an LLM experience model writes before its reward. Without it (`check`
 * false: the reasoning ablation) only the instruction's words in view count, as a model that matches the
 * demonstrations without thinking the purchase through would see it; nothing shows broken then.
 */
export function goalEvidence(
  instruction: string,
  state: Observation,
  action: string,
  check = true,
  vocabulary?: OptionVocabulary,
  bound?: AmountBound,
  /** What the episode did before this state (episodeTrace), where the page alone does not tell the state. */
  earlier?: string,
  /** Words of requests that no real episode's successful end showed (OfflineMemory.unseenWords): no requirement. */
  unseen?: ReadonlySet<string>,
): GoalEvidence {
  const goal = instruction.toLowerCase();
  const { referent, segments, kept, situation, buttons } = situationOf(instruction, state, action, earlier);
  const found = check && bound ? bound.instruction.exec(goal) : null;
  const limit = found ? Number(firstGroup(found)?.replaceAll(",", "")) : undefined;
  // The bound's number is checked against the prices in view, not looked for as a word.
  const words = contentWords(instruction).filter(
    (w) => (limit === undefined || Number(w) !== limit) && unseen?.has(w) !== true,
  );
  const seen = new Set(contentWords(situation));
  let met = words.filter((w) => seen.has(w)).length;
  const broken: string[] = [];
  if (limit !== undefined) {
    const amounts = [...kept.join("\n").matchAll(bound!.amount)].map((m) =>
      Number(firstGroup(m)?.replaceAll(",", "")),
    );
    if (amounts.length > 0 && Math.max(...amounts) < limit) met++;
    else if (amounts.length > 0 && Math.min(...amounts) >= limit) broken.push(`above the bound ${limit}`);
  }
  const rival = check && referent ? betterRecord(referent, words) : undefined;
  if (rival !== undefined) broken.push(`another record fits the instruction better: ${rival.slice(0, 80)}`);
  const groups = check ? choiceGroups(segments, buttons) : [];
  // What the instruction asks of the options on offer, and its wording without the price bound (whose number is
  // no size).
  const offeredAsked = groups.flatMap((g) => g.options.filter((o) => mentions(goal, o)));
  const wanted = found ? goal.replace(found[0], " ") : goal;
  for (const group of groups) {
    const asked = group.options.filter((o) => mentions(goal, o));
    if (asked.length === 0) {
      const unoffered = vocabulary && unofferedValue(group, wanted, offeredAsked, kept, vocabulary);
      if (unoffered) {
        broken.push(`${group.name}: ${unoffered} not among the choices`);
        continue;
      }
    }
    // A group the instruction says nothing about ("24 piece" for containers of any size) is free to choose.
    if (asked.length === 0 && !mentions(goal, group.name)) continue;
    const chosen = group.options.filter((o) => kept.some((segment) => mentions(segment, o)));
    for (const o of chosen) if (!asked.includes(o)) broken.push(`${group.name}: ${o}`);
    if (asked.length > 0 && !asked.some((o) => chosen.includes(o))) broken.push(`${group.name}: not chosen`);
  }
  const requirements = words.length + (limit === undefined ? 0 : 1);
  const score = requirements === 0 ? 0 : Math.max(0, (met - broken.length) / requirements);
  return { requirements, met, broken, score };
}

/**
 * A value the instruction asks of this group that the group does not offer: one the group takes on other pages
 * of the domain, named in the instruction, and neither part of an option asked elsewhere on this page ("pack of
 * 3" within "3 oz (pack of 3)") nor of what the page says outside its buttons ("natural" in a title's "Natural
 * Ingredients" is no color). The longest such value, or undefined.
 */
function unofferedValue(
  group: { name: string; options: string[] },
  wanted: string,
  offeredAsked: readonly string[],
  kept: readonly string[],
  vocabulary: OptionVocabulary,
): string | undefined {
  let best: string | undefined;
  for (const value of vocabulary(group.name) ?? []) {
    if (value.length < 2 || group.options.includes(value) || !mentions(wanted, value)) continue;
    if (offeredAsked.some((o) => o.includes(value) || value.includes(o))) continue;
    if (kept.some((segment) => mentions(segment, value))) continue;
    if (!best || value.length > best.length) best = value;
  }
  return best;
}
