import { diff } from "fast-myers-diff";
import { LRUCache } from "lru-cache";
import { actionParts } from "../admissible";
import { namesBestRecord, referentLines } from "./evidence";
import { LcsPattern } from "./lcs";

/**
 * Analogical transfer: how the current (state, action) differs from a demonstration's (state, action), as a
 * substitution of phrases, so that the demonstration's next state can be rewritten for the current situation.
 * "open cabinet 2" → "open drawer 1" gives {cabinet 2 → drawer 1}; applied to "The cabinet 2 is open." it
 * yields "The drawer 1 is open.". Domain-agnostic: it only aligns token sequences (a minimal Myers diff of word ids).
 */

export interface Token {
  text: string;
  /** Lower-cased word, or undefined for whitespace and punctuation (they are kept but never aligned). */
  word?: string;
}

// Words keep inner dots of numbers ("$14.79", "6.76") but not a sentence's full stop, and their hyphens ("x-small",
// "launch-plan"); a path's slashes part its words ("/drafts/launch-plan.txt": drafts, launch-plan, txt).
const TOKEN = /([A-Za-z0-9$'-]+(?:\.[0-9]+)*|\s+|[^A-Za-z0-9\s])/g;
/**
 * A rewrite reads finer: a slug's words are pieces with joiners between them, so that "launch plan" → "hiring
 * outline" reaches the name a path spells from those words ("/drafts/launch-plan.txt" → "/drafts/hiring-outline.txt").
 */
const PIECE = /([A-Za-z0-9$']+(?:\.[0-9]+)*|\s+|[^A-Za-z0-9\s])/g;

export function tokenize(text: string, pattern: RegExp = TOKEN): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(pattern)) {
    const t = match[0];
    const word = /^[A-Za-z0-9$]/.test(t) ? t.toLowerCase() : undefined;
    tokens.push(word ? { text: t, word } : { text: t });
  }
  return tokens;
}

type Word = Token & { word: string };

/** A text's words and their ids: the diff compares small integers, not strings. */
interface Words {
  words: Word[];
  ids: Int32Array;
  /** The ids as an LCS pattern, made when the text is first compared as a demonstration's. */
  pattern?: LcsPattern;
}

/**
 * Word ids, shared by every text so that equal words have equal ids. Bounded: when it is full it starts again,
 * and so does the memo of texts, whose ids would otherwise mean other words.
 */
const wordIds = new Map<string, number>();
const WORD_IDS_LIMIT = 500_000;
/** States repeat across a run's steps, so each text is tokenised once while it is in use. */
const textWords = new LRUCache<string, Words>({ max: 20_000 });

function words(text: string): Words {
  const hit = textWords.get(text);
  if (hit) return hit;
  if (wordIds.size >= WORD_IDS_LIMIT) {
    wordIds.clear();
    textWords.clear();
  }
  const list = tokenize(text).filter((t): t is Word => t.word !== undefined);
  const ids = new Int32Array(list.length);
  list.forEach((w, i) => {
    let id = wordIds.get(w.word);
    if (id === undefined) {
      id = wordIds.size;
      wordIds.set(w.word, id);
    }
    ids[i] = id;
  });
  const result = { words: list, ids };
  textWords.set(text, result);
  return result;
}

export interface Substitution {
  /** Lower-cased words of the demonstration. */
  from: string[];
  /** The current situation's words, as written there. */
  to: string[];
  /** Where it was learnt: the action's alignment outranks the state's. */
  weight: number;
}

const isNumber = (w: Word) => /^\d+$/.test(w.word);

interface Alignment {
  substitutions: Substitution[];
  common: number;
}

/**
 * Alignments by the two texts' word lists (identities from `textWords`): a group's rollouts meet the same
 * (demonstration page, current page) pair with other actions, and a third of the state alignments repeat. Entries
 * go when their word lists leave `textWords`; a list that stays meets at most ALIGNMENTS_PER_TEXT partners.
 */
const alignments = new WeakMap<Words, Map<Words, Alignment>>();
const ALIGNMENTS_PER_TEXT = 512;

function alignOnce(a: Words, b: Words, weight: number): Alignment {
  let partners = alignments.get(a);
  if (!partners) {
    partners = new Map();
    alignments.set(a, partners);
  }
  const hit = partners.get(b);
  if (hit) return hit;
  if (partners.size >= ALIGNMENTS_PER_TEXT) partners.clear();
  const result = align(a, b, weight);
  partners.set(b, result);
  return result;
}

/**
 * Substitutions from aligning two word sequences; lone numbers keep the word before them ("drawer 6"). Also the
 * number of words matched in order, so that one alignment serves both the rewrite and the overlap.
 */
function align(a: Words, b: Words, weight: number): Alignment {
  const out: Substitution[] = [];
  let removed = 0;
  let previousEnd = 0;
  let previousCommon: Word | undefined;
  // Each change replaces a[sx, ex) by b[sy, ey); what lies between changes is common to both, in order.
  for (const [sx, ex, sy, ey] of diff(a.ids, b.ids)) {
    if (sx > previousEnd) previousCommon = a.words[sx - 1];
    previousEnd = ex;
    removed += ex - sx;
    if (ex === sx || ey === sy) continue;
    let from = a.words.slice(sx, ex);
    let to = b.words.slice(sy, ey);
    if (previousCommon && from.every(isNumber) && to.every(isNumber)) {
      from = [previousCommon, ...from];
      to = [previousCommon, ...to];
    }
    if (from.length <= 8 && to.length <= 12)
      out.push({ from: from.map((w) => w.word), to: to.map((w) => w.text), weight });
  }
  return { substitutions: out, common: a.words.length - removed };
}

export interface Analogy {
  /** Made when first read: most analogies are only scored, and the state's diff is the costly part. */
  readonly substitutions: Substitution[];
  /**
   * Whether the demonstration's outcome, rewritten, shows this request's world: the two requests are alike
   * (GOAL_OVERLAP) and the two actions bear on them alike (sameBearing). Only where each task has its own world.
   */
  readonly carriesRequest: boolean;
  /** Share of the demonstration's (state, action) words that match the current one in order: 1 = same. */
  readonly overlap: number;
}

/** Words of `a` matched in order in `b`: the diff's count when it was made, else the LCS (the same number). */
function commonWords(a: Words, b: Words): number {
  const aligned = alignments.get(a)?.get(b);
  if (aligned) return aligned.common;
  a.pattern ??= new LcsPattern(a.ids);
  return a.pattern.lcs(b.ids);
}

/**
 * How alike two instructions must be (words matched in order, as a share of both) for their differences to be
 * read as the differences of their worlds: "the open shipping ticket from Keiko Alvarez" and "the open login
 * ticket from Olga Rossi" are one request about two records; a request to cancel a meeting says nothing of how a
 * ticket request's world maps onto another's.
 */
const GOAL_OVERLAP = 0.5;

/**
 * Substitutions between two instructions, when they are alike enough (GOAL_OVERLAP). Where each task has its own
 * world (the offline data says whether it does), a demonstration's page shows a world made for its instruction,
 * and the current task's differs the way its instruction does: the records the demonstration's request described
 * become the ones this request describes.
 */
function goalSubstitutions(goal: { demo: string; current: string }): Substitution[] | undefined {
  // A request may ask for several things ("close …, and cancel …"): each of this request's clauses is aligned with
  // the demonstration's clause most like it, and every pair alike enough stands for the two worlds' difference in
  // what that clause asks (the file one clause names and the notes the other does), the most alike first.
  const pairs: { overlap: number; substitutions: Substitution[] }[] = [];
  for (const currentClause of clausesOf(goal.current)) {
    let best: { overlap: number; substitutions: Substitution[] } | undefined;
    for (const demoClause of clausesOf(goal.demo)) {
      const demo = words(demoClause);
      const current = words(currentClause);
      const aligned = alignOnce(demo, current, 2);
      const overlap = (2 * aligned.common) / Math.max(1, demo.words.length + current.words.length);
      if (!best || overlap > best.overlap) best = { overlap, substitutions: aligned.substitutions };
    }
    if (best && best.overlap >= GOAL_OVERLAP) pairs.push(best);
  }
  if (pairs.length === 0) return undefined;
  // A slot's value for another ("keiko alvarez" → "maya tanaka"), not words one request has and the other lacks.
  return pairs
    .sort((a, b) => b.overlap - a.overlap)
    .flatMap((p) => p.substitutions.filter((s) => Math.abs(s.from.length - s.to.length) <= 1));
}

/**
 * Whether two actions bear on their requests alike: each argument is, or is not, something its request names,
 * and an action that picks a record from a list picks, or does not pick, the one its request describes, in both. A
 * demonstration that looked where its request pointed shows the record it asked for; the same look where this
 * request does not point shows nothing of this request's, so only a like action carries the request's difference
 * over (otherwise every lookup would find what the request asks for, and every file read would be the one asked
 * for).
 */
function sameBearing(
  demo: { state: string; action: string; goal: string },
  current: { state: string; action: string; goal: string },
): boolean {
  const bearing = ({ state, action, goal }: { state: string; action: string; goal: string }) => {
    const request = new Set(words(goal).words.map((w) => w.word));
    // By its words: the folder "/notes" is where "the follow-up notes of Rosa Alvarez" are looked for.
    const named = actionParts(action).args.map((arg) => {
      const value = words(arg).words;
      return value.length > 0 && value.every((w) => request.has(w.word));
    });
    return [...named, namesBestRecord({ text: state }, action, goal)];
  };
  const theirs = bearing(demo);
  const ours = bearing(current);
  // And the action must bear on the request at all: a look the request did not point to (walking to the next
  // shelf) found the demonstration's goal object where its world happened to hold it, which says nothing of where
  // this world holds this request's.
  return (
    theirs.length === ours.length && theirs.every((b, i) => b === ours[i]) && ours.some((b) => b === true)
  );
}

/**
 * Substitutions between the records the two actions name on their lists: the file read is the one on the line
 * with its path, whoever the line next to it in the demonstration's list belonged to. Aligning the two pages word
 * by word pairs records by their places in the lists, which says nothing of which one either action picked.
 */
function referentSubstitutions(
  demo: { state: string; action: string },
  current: { state: string; action: string },
): Substitution[] {
  const theirs = referentLines({ text: demo.state }, demo.action, "")?.named[0];
  const ours = referentLines({ text: current.state }, current.action, "")?.named[0];
  if (theirs === undefined || ours === undefined) return [];
  return alignOnce(words(theirs), words(ours), 2.5).substitutions;
}

/** A text's clauses, at its punctuation (at most a few: requests are short), or the whole text. */
function clausesOf(text: string): string[] {
  const clauses = text
    .split(/[,.;:!?]+/)
    .map((c) => c.trim())
    .filter((c) => /[a-z0-9]/i.test(c));
  return clauses.length > 1 && clauses.length <= 4 ? clauses : [text];
}

export function analogy(
  demo: { state: string; action: string },
  current: { state: string; action: string },
  goal?: { demo: string; current: string },
  /** Keep the places both actions name as they are (sameArguments): where each task has its own world. */
  sharedArguments = false,
): Analogy {
  const demoAction = words(demo.action);
  const curAction = words(current.action);
  const demoState = words(demo.state);
  const curState = words(current.state);
  const action = align(demoAction, curAction, 3);
  // State and action align separately (an action word never pairs with a state word); the +1 stands for the
  // boundary between them, which always aligns.
  const common = commonWords(demoState, curState) + action.common + 1;
  const overlap =
    (2 * common) /
    (demoState.words.length + demoAction.words.length + curState.words.length + curAction.words.length + 2);
  let substitutions: Substitution[] | undefined;
  let carried: Substitution[] | null | undefined;
  const fromRequest = (): Substitution[] | null => {
    if (carried === undefined)
      carried =
        (goal && sameBearing({ ...demo, goal: goal.demo }, { ...current, goal: goal.current })
          ? goalSubstitutions(goal)
          : undefined) ?? null;
    return carried;
  };
  return {
    overlap,
    get carriesRequest() {
      return fromRequest() !== null;
    },
    get substitutions() {
      substitutions ??= oneTargetPerSource(
        [...action.substitutions, ...(sharedArguments ? sameArguments(demo, current) : [])],
        [
          ...referentSubstitutions(demo, current),
          ...(fromRequest() ?? []),
          ...alignOnce(demoState, curState, 1).substitutions,
        ],
      );
      return substitutions;
    },
  };
}

/**
 * The arguments both actions share, each mapped to itself above anything else: the place both walk to is the
 * same place on both pages, whatever the rooms' lists around it shifted ("countertop 1" became "countertop 3 a
 * countertop 2" where this room lists two more countertops than the demonstration's).
 */
function sameArguments(
  demo: { state: string; action: string },
  current: { state: string; action: string },
): Substitution[] {
  const ours = actionParts(current.action).args.map((a) => a.toLowerCase());
  return actionParts(demo.action).args.flatMap((arg, i) => {
    const lower = arg.toLowerCase();
    if (lower !== ours[i]) return [];
    const phrase = tokenize(lower).flatMap((t) => (t.word !== undefined ? [t.word] : []));
    // Phrases only: a lone word or number ("417") is left to the alignments, which rewrite it consistently with
    // the records around it.
    return phrase.length > 1 ? [{ from: phrase, to: phrase, weight: Number.MAX_SAFE_INTEGER }] : [];
  });
}

/** One target per source phrase: the action's alignment wins, then the instructions', then the longer phrase. */
function oneTargetPerSource(action: Substitution[], state: Substitution[]): Substitution[] {
  const bySource = new Map<string, Substitution>();
  for (const s of [...action, ...state]) {
    const key = s.from.join(" ");
    const existing = bySource.get(key);
    if (!existing || s.weight > existing.weight) bySource.set(key, s);
  }
  return [...bySource.values()].sort((x, y) => y.from.length - x.from.length);
}

/** A text's tokens and where each starts (one more entry: the text's length), made once while it is in use. */
interface PageTokens {
  tokens: Token[];
  starts: Int32Array;
}

/** A demonstration's page is rewritten for many steps: its tokens are made once while it is in use (never changed). */
const pageTokens = new LRUCache<string, PageTokens>({ max: 2_048 });
/** And so is its lower-cased copy, which says whether a rewrite can apply at all. */
const lowerCased = new LRUCache<string, string>({ max: 4_096 });

function lowerCaseOf(text: string): string {
  let lower = lowerCased.get(text);
  if (lower === undefined) {
    lower = text.toLowerCase();
    lowerCased.set(text, lower);
  }
  return lower;
}

function tokensOf(text: string): PageTokens {
  let page = pageTokens.get(text);
  if (!page) {
    const tokens = tokenize(text, PIECE);
    const starts = new Int32Array(tokens.length + 1);
    for (let i = 0; i < tokens.length; i++) starts[i + 1] = starts[i]! + tokens[i]!.text.length;
    page = { tokens, starts };
    pageTokens.set(text, page);
  }
  return page;
}

/** Rewrites a text with substitutions (longest source first, on word boundaries, case-insensitive). */
export function applySubstitutions(
  text: string,
  substitutions: Substitution[],
): { text: string; replaced: number } {
  if (substitutions.length === 0) return { text, replaced: 0 };
  // Three in four texts contain no substitution's first word (words are ASCII, so lower-casing the whole text
  // lower-cases each word alike): such a text comes back unchanged without being tokenised.
  const lower = lowerCaseOf(text);
  if (!substitutions.some((s) => s.from.length > 0 && lower.includes(s.from[0]!)))
    return { text, replaced: 0 };
  // The tokens cover the text end to end, so what lies between replacements is copied as slices of it.
  const { tokens, starts } = tokensOf(text);
  let out = "";
  let copied = 0;
  let replaced = 0;
  let i = 0;
  while (i < tokens.length) {
    let end: number | undefined;
    if (tokens[i]!.word !== undefined) {
      for (const s of substitutions) {
        const match = matchAt(tokens, i, piecesOf(s));
        if (match !== undefined) {
          end = match.end;
          out += text.slice(copied, starts[i]) + render(text, starts, tokens, i, match, s.to);
          copied = starts[end]!;
          replaced++;
          break;
        }
      }
    }
    i = end ?? i + 1;
  }
  return replaced === 0 ? { text, replaced } : { text: out + text.slice(copied), replaced };
}

const SPACE = /^\s+$/;
/** What joins the words of a path or a slug: "/drafts/launch-plan.txt", "team_lunch". */
const JOINER = /^[-_/.]$/;
/** What joins the pieces of one word ("x-small", "launch-plan"), and a name's words inside a slug. */
const NAME_JOINER = /^[-_]$/;

/** Each source word's pieces ("x-small": x, small), made once per substitution. */
const pieces = new WeakMap<Substitution, string[][]>();
function piecesOf(s: Substitution): string[][] {
  let split = pieces.get(s);
  if (!split) {
    split = s.from.map((w) => w.split(/[-_]/).filter((p) => p.length > 0));
    pieces.set(s, split);
  }
  return split;
}

interface Match {
  /** The index after the phrase. */
  end: number;
  /** Where the first source word ends: its text gives the case style of the replacement. */
  firstEnd: number;
  /** The tokens between the source words: all whitespace (prose) or all joiners (a slug). */
  gaps: string[];
}

/**
 * The phrase `from` (its words' pieces) at i, or undefined: a word's pieces joined by a hyphen or an underscore, the
 * words apart by whitespace (prose) or by one joiner (a path or a slug spells a name's words "launch-plan"), never
 * by both kinds.
 */
function matchAt(tokens: Token[], start: number, from: string[][]): Match | undefined {
  // Index loops: this runs for every word of every rewritten page against every substitution.
  let i = start;
  let firstEnd = start;
  let spaced: boolean | undefined;
  const gaps: string[] = [];
  for (let n = 0; n < from.length; n++) {
    if (n > 0) {
      const between = tokens[i]?.text;
      if (between === undefined) return undefined;
      const space = SPACE.test(between);
      if (!space && !JOINER.test(between)) return undefined;
      if (spaced !== undefined && spaced !== space) return undefined;
      spaced = space;
      gaps.push(between);
      i++;
    }
    const word = from[n]!;
    for (let p = 0; p < word.length; p++) {
      if (p > 0) {
        const joiner = tokens[i]?.text;
        if (joiner === undefined || !NAME_JOINER.test(joiner)) return undefined;
        i++;
      }
      if (tokens[i]?.word !== word[p]) return undefined;
      i++;
    }
    if (n === 0) firstEnd = i;
  }
  return { end: i, firstEnd, gaps };
}

/**
 * The replacement of a match by `to`: as the words are written (renderLike), except inside a path or a slug
 * written in lower case, where it is spelt the slug's way ("Hiring Outline" → "hiring-outline").
 */
function render(
  text: string,
  starts: Int32Array,
  tokens: Token[],
  start: number,
  match: Match,
  to: string[],
): string {
  const first = text.slice(starts[start], starts[match.firstEnd]);
  const whole = text.slice(starts[start], starts[match.end]);
  if (!inSlug(tokens, start, match) || whole !== whole.toLowerCase()) return renderLike(first, to);
  // As many words as the phrase had: each gap keeps its joiner ("reports/launch-memo.txt" stays itself).
  const gaps =
    match.gaps.length === to.length - 1
      ? match.gaps
      : new Array<string>(Math.max(0, to.length - 1)).fill(slugJoiner(tokens, start, match.end));
  return to
    .map((w, n) => (n === 0 ? "" : gaps[n - 1]!) + w)
    .join("")
    .toLowerCase();
}

/** Whether the phrase's words are joined to each other or to a neighbour without whitespace: a path or a slug. */
function inSlug(tokens: Token[], start: number, match: Match): boolean {
  const before = tokens[start - 1]?.text;
  const after = tokens[match.end]?.text;
  return (
    (match.gaps.length > 0 && !SPACE.test(match.gaps[0]!)) ||
    (before !== undefined && JOINER.test(before) && tokens[start - 2]?.word !== undefined) ||
    (after !== undefined && JOINER.test(after) && tokens[match.end + 1]?.word !== undefined)
  );
}

/** The joiner of a name's words in the slug around [start, end): the nearest hyphen or underscore, else "-". */
function slugJoiner(tokens: Token[], start: number, end: number): string {
  let from = start;
  while (from > 0 && !SPACE.test(tokens[from - 1]!.text)) from--;
  let to = end;
  while (to < tokens.length && !SPACE.test(tokens[to]!.text)) to++;
  for (let i = from; i < to; i++) if (NAME_JOINER.test(tokens[i]!.text)) return tokens[i]!.text;
  return "-";
}

/** Keeps the case style of the replaced text: "B01" → "B02", "b01" → "b02". */
function renderLike(original: string, to: string[]): string {
  const text = to.join(" ");
  if (original === original.toUpperCase() && /[A-Z]/.test(original)) return text.toUpperCase();
  if (
    original === original.toLowerCase() &&
    /[a-z]/.test(original) &&
    /^[a-z0-9]+$/i.test(text) &&
    /\d/.test(text)
  )
    return text.toLowerCase();
  return text;
}
