import type { Observation, Transition } from "../../types";
import { hashString } from "../../util/random";
import { literalPattern } from "../../util/regex";
import { contentWords } from "../../util/words";
import { actionParts, actionTemplate } from "../admissible";
import { applySubstitutions, type Substitution } from "./analogy";

/**
 * Where a request's things turn up, learnt from the real episodes of the offline data. Where each task has its own
 * world behind the same words (a room whose contents differ from task to task), no analogue can say whether the
 * place this action looks at holds what this request asks for: its page shows what its own world held there.
 * Rewritten from analogues, the model's rooms held the request's object by chance, nearly never where a policy
 * looked, and a policy that had learnt where to look for an apple found it in 28% of its synthetic episodes against
 * 49% of its real ones. So the memory counts, for each kind of action, the class of place it acts on ("countertop"
 * of "go to countertop 3") and each word of a request not named by the action, how often the page after it showed
 * the word more often than the page before (a sighting), separately before and after the episode had seen the word.
 * A task's world then holds the word at a place when a draw fixed by the task, the place and the word falls under
 * that rate: the same room for every rollout of a group, as the real environment gives them.
 */

/** Pseudo-counts of the broader rate (any word at the place, the word at any place) given to a narrower one. */
const PRIOR_WEIGHT = 4;
/** Examples of pages kept per kind and class of place, with a sighting and without one. */
const EXAMPLES = 6;
/** Fewer transitions of a kind of action than this, and it is not known well enough to draw worlds from. */
const MIN_KIND = 20;

interface Counts {
  times: number;
  sighted: number;
}

/** A real transition that showed its request's word (`word`), or none of them (`word` undefined). */
interface Example {
  state: Observation;
  action: string;
  next: Observation;
  word?: string;
}

export type SightingsData = {
  counts: [key: string, counts: Counts][];
  examples: [key: string, examples: Example[]][];
};

/** The words of a request that the world may hold, lower-cased. */
export function requestWords(instruction: string): string[] {
  return [...new Set(contentWords(instruction.toLowerCase()).filter((w) => /^[a-z]{3,}$/.test(w)))];
}

/** The words of pages, lower-cased, as sightings read them: what an episode has seen so far. */
export function pageWords(pages: Iterable<Observation>, into = new Set<string>()): Set<string> {
  for (const page of pages) for (const w of page.text.toLowerCase().match(/[a-z]+/g) ?? []) into.add(w);
  return into;
}

/** How often a text names the word whole ("apple" in "apple 2", not in "pineapple"). */
function timesNamed(text: string, word: string): number {
  return text.toLowerCase().match(wholeWord(word))?.length ?? 0;
}

/** A word's pattern, made once: every prediction reads each request word on two pages. */
const patterns = new Map<string, RegExp>();
function wholeWord(word: string): RegExp {
  let pattern = patterns.get(word);
  if (!pattern) {
    if (patterns.size >= 4_096) patterns.clear();
    pattern = new RegExp(`(?<![a-z])${literalPattern(word)}(?![a-z])`, "g");
    patterns.set(word, pattern);
  }
  return pattern;
}

/** Whether the page after shows the word more often than the page before. */
function sighted(state: Observation, next: Observation, word: string): boolean {
  return timesNamed(next.text, word) > timesNamed(state.text, word);
}

/**
 * What an action acts on, as a class of place: its arguments without their numbers ("countertop" of "countertop
 * 3"), and whether the request names one of them whole (a lookup in the folder the request names shows the file
 * the request describes, as its world was made for it; a walk to "countertop 3" is not named by "… on the
 * countertop").
 */
function placeOf(action: string, state: Observation, instruction: string): string {
  const args = actionParts(action, state).args.map((a) =>
    a
      .replace(/^["']|["']$/g, "")
      .trim()
      .toLowerCase(),
  );
  const request = instruction.toLowerCase();
  const named = args.some((a) => a.length > 0 && timesNamed(request, a) > 0);
  const place = args.map((a) => a.replace(/\d+/g, "").replace(/\s+/g, " ").trim()).join("\u0001");
  return named ? `${place}\u0001named` : place;
}

/** What an action acts on, with its numbers: the one place the draw is made for. */
function placeInstance(action: string, state: Observation): string {
  return actionParts(action, state)
    .args.map((a) => a.toLowerCase())
    .join("\u0001");
}

/** A number in [0, 1) fixed by the strings: the same task, place and word draw the same world every time. */
function draw(...parts: string[]): number {
  return hashString(parts.join("\u0000")) / 2 ** 32;
}

export class SightingCounts {
  private readonly counts = new Map<string, Counts>();
  private readonly examples = new Map<string, Example[]>();
  private pooled: Map<string, Counts> | undefined;
  /** Words some action showed, and how often each was asked for (pooledCounts). */
  private found = new Set<string>();
  private asked = new Map<string, number>();

  /** One real valid step: `seen` holds the words of its episode's pages up to its state (pageWords). */
  learn(t: Transition, seen: ReadonlySet<string>): void {
    const kind = actionTemplate(t.action, t.state);
    const place = placeOf(t.action, t.state, t.instruction);
    const action = t.action.toLowerCase();
    this.pooled = undefined;
    let shown: string | undefined;
    for (const word of requestWords(t.instruction)) {
      if (timesNamed(action, word) > 0) continue;
      const again = seen.has(word);
      const hit = sighted(t.state, t.next, word);
      if (hit && shown === undefined) shown = word;
      for (const key of keysOf(kind, place, word, again)) {
        const c = this.counts.get(key) ?? { times: 0, sighted: 0 };
        c.times++;
        if (hit) c.sighted++;
        this.counts.set(key, c);
      }
    }
    const key = `${kind}\u0000${place}\u0000${shown === undefined ? "none" : "sighted"}`;
    const kept = this.examples.get(key) ?? [];
    if (kept.length < EXAMPLES) {
      kept.push({
        state: t.state,
        action: t.action,
        next: t.next,
        ...(shown !== undefined ? { word: shown } : {}),
      });
      this.examples.set(key, kept);
    }
  }

  /**
   * The rate at which this kind of action on this class of place shows the word. Where the place and word were
   * met together seldom, it is drawn towards what the place shows of any word a request names that looks ever
   * found (a bed holds a request's flower half the time) times how much likelier this word is found than such
   * words are (roses are found more than tulips; a porch, where roses go, is never found in anything). Undefined
   * where the kind of action or the class of place is barely known.
   */
  rate(kind: string, place: string, word: string, again: boolean): number | undefined {
    const seen = again ? "again" : "first";
    const pooled = this.pooledCounts();
    const anyPlace = pooled.get(`${kind}\u0000\u0000${seen}`);
    if (!anyPlace || anyPlace.times < MIN_KIND) return undefined;
    const base = anyPlace.sighted / anyPlace.times;
    const [atPlace, anywhere] = keysOf(kind, place, word, again).map((k) => this.counts.get(k));
    // Only places met often are known well enough to draw from: a room's furniture recurs from task to task, a
    // lookup's name or a file's path belongs to one request, whose world is made for it.
    const atPlaces = pooled.get(`${kind}\u0000${place}\u0000${seen}`);
    if (!atPlaces || atPlaces.times < MIN_KIND) return undefined;
    const placeRate = shrink(atPlaces, base);
    const wordRate = shrink(anywhere, base);
    const prior = base > 0 ? Math.min(1, (placeRate * wordRate) / base) : 0;
    return shrink(atPlace, prior);
  }

  /** Whether the word was asked for in MIN_KIND steps and no action ever showed it. */
  private neverFound(word: string): boolean {
    this.pooledCounts();
    return !this.found.has(word) && (this.asked.get(word) ?? 0) >= MIN_KIND;
  }

  /** Counts over the words ever found (by any action), by kind and class of place and by kind: made once. */
  private pooledCounts(): Map<string, Counts> {
    if (this.pooled) return this.pooled;
    const found = new Set<string>();
    const asked = new Map<string, number>();
    for (const [key, c] of this.counts) {
      const [, place, word] = key.split("\u0000") as [string, string, string];
      if (c.sighted > 0) found.add(word);
      if (place === "") asked.set(word, (asked.get(word) ?? 0) + c.times);
    }
    this.found = found;
    this.asked = asked;
    const pooled = new Map<string, Counts>();
    for (const [key, c] of this.counts) {
      const [kind, place, word, seen] = key.split("\u0000") as [string, string, string, string];
      if (!found.has(word)) continue;
      const to = `${kind}\u0000${place}\u0000${seen}`;
      const p = pooled.get(to) ?? { times: 0, sighted: 0 };
      p.times += c.times;
      p.sighted += c.sighted;
      pooled.set(to, p);
    }
    this.pooled = pooled;
    return pooled;
  }

  /**
   * The next state of a task's world: where the draw says the place holds a word of the request and the predicted
   * page does not show it (or the other way round), the page of a real transition of this kind and class of place
   * that did (or did not) show its own request's word, with that word made this request's and its place this one.
   * Undefined where the predicted page already agrees with the draw.
   */
  sight(
    taskId: string,
    instruction: string,
    state: Observation,
    action: string,
    predicted: Observation,
    seen: ReadonlySet<string>,
  ): { next: Observation; word: string; held: boolean; rate: number } | undefined {
    const kind = actionTemplate(action, state);
    const place = placeOf(action, state, instruction);
    const instance = placeInstance(action, state);
    const lower = action.toLowerCase();
    for (const word of requestWords(instruction)) {
      if (timesNamed(lower, word) > 0) continue;
      // A word the offline pages never showed after an action, though asked for, is no thing found anywhere.
      if (this.neverFound(word)) continue;
      const again = seen.has(word);
      const rate = this.rate(kind, place, word, again);
      if (rate === undefined) continue;
      const held = draw(taskId, instance, word) < rate;
      if (held === sighted(state, predicted, word)) continue;
      const next = this.pageFrom(kind, place, held, word, state, action, draw(taskId, instance));
      if (next) return { next, word, held, rate };
    }
    return undefined;
  }

  /** The first kept example (from a place fixed by the draw) whose page, made this step's, agrees with the draw. */
  private pageFrom(
    kind: string,
    place: string,
    held: boolean,
    word: string,
    state: Observation,
    action: string,
    at: number,
  ): Observation | undefined {
    const examples = this.examples.get(`${kind}\u0000${place}\u0000${held ? "sighted" : "none"}`) ?? [];
    for (let i = 0; i < examples.length; i++) {
      const example = examples[(Math.floor(at * examples.length) + i) % examples.length]!;
      const substitutions: Substitution[] = [
        ...placeSubstitutions(example, action, state),
        ...(example.word !== undefined && example.word !== word
          ? [{ from: [example.word], to: [word], weight: 1 }]
          : []),
      ];
      const rewrite = (text: string) => applySubstitutions(text, substitutions).text;
      const next: Observation = {
        text: rewrite(example.next.text),
        ...(example.next.actions ? { actions: [...new Set(example.next.actions.map(rewrite))] } : {}),
      };
      if (sighted(state, next, word) === held) return next;
    }
    return undefined;
  }

  toData(): SightingsData {
    return { counts: [...this.counts], examples: [...this.examples] };
  }

  static fromData(data: SightingsData): SightingCounts {
    const sightings = new SightingCounts();
    for (const [key, c] of data.counts) sightings.counts.set(key, { ...c });
    for (const [key, e] of data.examples) sightings.examples.set(key, [...e]);
    return sightings;
  }
}

/** The counts a step adds to: the word at this class of place, and the word at any (an empty place). */
function keysOf(kind: string, place: string, word: string, again: boolean): [string, string] {
  const seen = again ? "again" : "first";
  return [`${kind}\u0000${place}\u0000${word}\u0000${seen}`, `${kind}\u0000\u0000${word}\u0000${seen}`];
}

/** A rate drawn towards `prior` by PRIOR_WEIGHT pseudo-counts. */
function shrink(c: Counts | undefined, prior: number): number {
  return c ? (c.sighted + PRIOR_WEIGHT * prior) / (c.times + PRIOR_WEIGHT) : prior;
}

/** The example's arguments made this action's, word for word where they have as many ("countertop 2" → "3"). */
function placeSubstitutions(example: Example, action: string, state: Observation): Substitution[] {
  const theirs = actionParts(example.action, example.state).args;
  const ours = actionParts(action, state).args;
  return theirs.flatMap((arg, i) => {
    const to = ours[i];
    if (to === undefined || arg.toLowerCase() === to.toLowerCase()) return [];
    return [{ from: arg.toLowerCase().split(/\s+/), to: to.split(/\s+/), weight: 2 }];
  });
}
