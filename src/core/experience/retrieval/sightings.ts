import type { Observation, Transition } from "../../types";
import { hashString } from "../../util/random";
import { literalPattern } from "../../util/regex";
import { contentWords } from "../../util/words";
import { actionParts, actionTemplate } from "../admissible";
import { segmentsOf } from "../segments";
import { applySubstitutions, type Substitution } from "./analogy";
import { frameOf, labelledParts } from "./frames";

/**
 * Where a request's things are, learnt from the real episodes of the offline data. Where each task has its own
 * world behind the same words (a room whose contents differ from task to task), no analogue can say whether the
 * place this action looks at holds what this request asks for: its page shows what its own world held there.
 *
 * A task's world is drawn whole, once for every (task, request word): the word is at one place of this episode's
 * places (the instances of every place its pages offered an action on), drawn with odds learnt from where real
 * episodes first saw such a word, per instance of each class of place the room had ("countertop" of "countertop
 * 3"; a class the request names apart, as a thing is seldom where it is to be put), and at more places as often as
 * real episodes saw it at more than one. An action then shows the word where its place holds it, as often as real
 * actions of its kind showed a word at a place known to hold it (opening a drawer shows what is in it; walking to a
 * closed one does not).
 *
 * Why not the share of looks at a place that showed the word: the offline episodes' policies choose where to look,
 * an expert only where the thing is, so those shares read every usual place as nearly always holding it (a room
 * held the request's object at 2.7 places on average against the real 1.6, and 5% held it nowhere). Where real
 * episodes first saw the thing is chosen by the world, not by the looker, and a look at a place the episode later
 * saw the thing at is counted the same whoever chose it.
 */

/** Pseudo-counts of the broader estimate (any word at the class of place, any class for a kind) given a narrower one. */
const PRIOR_WEIGHT = 4;
/** Examples of pages kept per kind and class of place, with a sighting and without one. */
const EXAMPLES = 6;
/** Examples kept per kind and class of place of each word's own sightings, tried first (pageFrom). */
const WORD_EXAMPLES = 2;
/** Fewer real observations than this, and a class of place or kind of action is not known well enough to draw from. */
const MIN_KIND = 20;
/** Successful real episodes asking for a word that say whether it is a thing the world holds (isThing). */
const MIN_SUCCESSES = 5;
/** Worlds drawn and kept, by task, word and places: every step of every rollout of a group asks again. */
const WORLDS_KEPT = 4_096;

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
  /** Where episodes first saw a word: `class\0word` → [first seen there, instances of the class their rooms had]. */
  firsts: [key: string, counts: [first: number, exposure: number]][];
  /** Looks of a kind at a place known to hold the word: `kind\0class` (and `kind\0`) → times, sighted. */
  reveals: [key: string, counts: Counts][];
  /** Places an episode saw a request's thing at, where it saw it: by each word of the request (and "") → [things, places]. */
  spread: [key: string, counts: [episodes: number, places: number]][];
  /**
   * Looks after an episode first saw a request's thing, at places it had not looked at: by each word of the request
   * (and ""), kind of action and class of place (`word\u0002kind\u0000class`) → looks, and those that showed the thing.
   */
  after?: [key: string, counts: [looks: number, shown: number]][];
  /** Each request word: looks that asked for it, places it was seen at, successful episodes asking, finding it. */
  words: [word: string, counts: [asked: number, found: number, succeeded: number, foundBySuccess: number]][];
  examples: [key: string, examples: Example[]][];
};

/** The words of a request that the world may hold, lower-cased. */
export function requestWords(instruction: string): string[] {
  return [...new Set(contentWords(instruction.toLowerCase()).filter((w) => /^[a-z]{3,}$/.test(w)))];
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

/**
 * Whether the page after shows the word in a sentence the page before did not have: a room's page after walking on
 * shows an apple there even when the place walked from showed one too, and a page that echoes its request in every
 * step does not show its words anew.
 */
function sighted(state: Observation, next: Observation, word: string): boolean {
  const before = new Set(sentences(state.text));
  return sentences(next.text).some((s) => !before.has(s) && timesNamed(s, word) > 0);
}

/** A page's sentences: its segments (segments.ts), cut again at a mark standing alone and after a full stop. */
function sentences(text: string): string[] {
  let cut = cutPages.get(text);
  if (!cut) {
    if (cutPages.size >= 4_096) cutPages.clear();
    cut = segmentsOf(text)
      .flatMap((segment) => segment.split(/\s+[^\sa-z0-9]+\s+|(?<=[.!?])\s+/i))
      .map((s) => s.trim())
      .filter(Boolean);
    cutPages.set(text, cut);
  }
  return cut;
}

/** Pages cut into sentences, made once: every prediction reads each request word on two pages. */
const cutPages = new Map<string, string[]>();

/**
 * What an action acts on, as a class of place: its arguments without their numbers ("countertop" of "countertop
 * 3"), and whether the request names one of them whole (a lookup in the folder the request names shows the file
 * the request describes, as its world was made for it) or names its class ("… on the countertop": where a thing
 * is to be put is seldom where it was).
 */
function classOf(args: readonly string[], instruction: string): string {
  const clean = args.map((a) =>
    a
      .replace(/^["']|["']$/g, "")
      .trim()
      .toLowerCase(),
  );
  const request = instruction.toLowerCase();
  const classes = clean.map((a) => a.replace(/\d+/g, "").replace(/\s+/g, " ").trim());
  const place = classes.join("\u0001");
  if (clean.some((a) => a.length > 0 && timesNamed(request, a) > 0)) return `${place}\u0001named`;
  if (classes.some((c) => /[a-z]/.test(c) && timesNamed(request, c) > 0)) return `${place}\u0001class named`;
  return place;
}

/**
 * The role of a class of place (classOf) in its request, pooled over classes: every class the request names as a
 * class ("… on the dresser"); any other class is its own. A place the request names whole is its world's already
 * (requestsSayWhere): pooled, the events and files a request named were drawn as if hidden anywhere.
 */
function roleOf(cls: string): string {
  return cls.endsWith("\u0001class named") ? "\u0002class named" : cls;
}

/** The place an action acts on: its class, and the one instance a world holds things at ("" without arguments). */
function placeOf(action: string, state: Observation, instruction: string): { cls: string; instance: string } {
  const args = actionParts(action, state).args;
  return { cls: classOf(args, instruction), instance: args.map((a) => a.toLowerCase()).join("\u0001") };
}

/** An episode's places: every instance its pages offered an action on, by instance, with its class. */
function placesOffered(
  offers: Iterable<string>,
  state: Observation,
  instruction: string,
): Map<string, string> {
  const places = new Map<string, string>();
  for (const a of offers) {
    const { cls, instance } = placeOf(a, state, instruction);
    if (instance !== "" && !places.has(instance)) places.set(instance, cls);
  }
  return places;
}

/** Whether an action names a place instance whole ("put apple 1 in/on countertop 1" names "countertop 1"). */
function namesPlace(action: string, instance: string): boolean {
  return instance.split("\u0001").every((part) => timesNamed(action, part) > 0);
}

/**
 * Where the agent moved a request's things in this episode, by word and place instance (`word\u0000instance`):
 * after an action that named the word and a place of the room together, the thing is no longer there where a
 * labelled part of the page after names it (carried: "holding: apple 1"), and is there where none does (put). The
 * last such action decides. A drawn world knows nothing of the agent: without this, a place showed the apple the
 * agent had just taken from it.
 */
export function movesOf(
  instruction: string,
  steps: readonly { action: string; next: Observation }[],
  places: Iterable<string>,
): Map<string, boolean> {
  const moves = new Map<string, boolean>();
  const words = requestWords(instruction);
  const instances = [...places];
  for (const { action, next } of steps) {
    const named = words.filter((w) => timesNamed(action, w) > 0);
    if (named.length === 0) continue;
    const at = instances.filter((instance) => namesPlace(action, instance));
    if (at.length === 0) continue;
    const parts = labelledParts(next.text);
    if (parts.length === 0) continue;
    for (const word of named) {
      const carried = parts.some((part) => timesNamed(part, word) > 0);
      for (const instance of at) moves.set(`${word}\u0000${instance}`, !carried);
    }
  }
  return moves;
}

/** A number in (0, 1) fixed by the strings: the same task, place and word draw the same world every time. */
function draw(...parts: string[]): number {
  return (hashString(parts.join("\u0000")) + 0.5) / 2 ** 32;
}

/** A task's world for one word: the places of the first page that hold it, and the score the first of them won by. */
interface World {
  held: ReadonlySet<string>;
  best: number;
}

/** A place's score in the draw of where a thing is first found: log odds plus a Gumbel draw fixed by task and place. */
function gumbelScore(taskId: string, instance: string, word: string, odds: number): number {
  return Math.log(odds) - Math.log(-Math.log(draw(taskId, instance, word, "first")));
}

/** One real valid step of an episode being learnt, with the actions its episode's pages offered. */
interface Learnt {
  t: Transition;
  offers: ReadonlySet<string>;
}

export class SightingCounts {
  private readonly firsts = new Map<string, [number, number]>();
  private readonly reveals = new Map<string, Counts>();
  private readonly spread = new Map<string, [number, number]>();
  private readonly after = new Map<string, [number, number]>();
  /** The share of looks after a first sighting that showed the thing, by request word (rateAfter): made once. */
  private readonly afterRates = new Map<string, number | undefined>();
  private readonly words = new Map<string, [number, number, number, number]>();
  private readonly examples = new Map<string, Example[]>();
  private episode: Learnt[] = [];
  private pooled: Map<string, [number, number]> | undefined;
  /** Whether requests say where their things are (requestsSayWhere): made once. */
  private sayWhere: boolean | undefined;
  /** How many episodes first saw each word anywhere (pooledFirsts). */
  private readonly wordFirsts = new Map<string, number>();
  private readonly worlds = new Map<string, World>();

  /** One real valid step; `offers`: the actions its episode's pages offered so far (grows with the episode). */
  learn(t: Transition, offers: ReadonlySet<string>): void {
    this.episode.push({ t, offers });
    let shown: string | undefined;
    for (const word of requestWords(t.instruction)) {
      if (timesNamed(t.action, word) === 0 && sighted(t.state, t.next, word)) {
        shown = word;
        break;
      }
    }
    const { cls } = placeOf(t.action, t.state, t.instruction);
    const key = `${actionTemplate(t.action, t.state)}\u0000${cls}\u0000${shown === undefined ? "none" : "sighted"}`;
    const example = {
      state: t.state,
      action: t.action,
      next: t.next,
      ...(shown !== undefined ? { word: shown } : {}),
    };
    this.keep(key, example, EXAMPLES);
    // A few of each word's own: a lamp is seen standing next to a place, an apple lying on it.
    if (shown !== undefined) this.keep(`${key}\u0000${shown}`, example, WORD_EXAMPLES);
  }

  private keep(key: string, example: Example, most: number): void {
    const kept = this.examples.get(key) ?? [];
    if (kept.length < most) {
      kept.push(example);
      this.examples.set(key, kept);
    }
  }

  /** The episode learnt so far is whole: count where it first saw each word of its request, and what showed it. */
  endEpisode(): void {
    const steps = this.episode;
    this.episode = [];
    this.worlds.clear();
    this.pooled = undefined;
    this.sayWhere = undefined;
    this.afterRates.clear();
    const first = steps[0];
    const last = steps.at(-1);
    if (!first || !last) return;
    const instruction = first.t.instruction;
    const succeeded = last.t.done && last.t.success;
    const room = placesOffered(last.offers, first.t.state, instruction);
    const perClass = new Map<string, number>();
    for (const cls of room.values()) perClass.set(cls, (perClass.get(cls) ?? 0) + 1);
    const looks = steps.map(({ t }) => ({
      t,
      kind: actionTemplate(t.action, t.state),
      ...placeOf(t.action, t.state, instruction),
    }));
    const words = requestWords(instruction);
    for (const word of words) {
      // The looks that did not name the word, and where the episode saw it, at which of them first at each place,
      // until an action named the word and the place together (a take from it, a put in it): what the place held
      // since is the agent's doing, not the world's, and a look before such a put is no look at a place that held
      // the thing.
      const asked: (typeof looks)[number][] = [];
      const movedAtLook: boolean[] = [];
      const moved = new Set<string>();
      const seenAt = new Map<string, number>();
      for (const l of looks) {
        if (l.instance === "") continue;
        if (timesNamed(l.t.action, word) > 0) {
          for (const instance of room.keys()) if (namesPlace(l.t.action, instance)) moved.add(instance);
          continue;
        }
        const wasMoved = moved.has(l.instance);
        if (!seenAt.has(l.instance) && !wasMoved && sighted(l.t.state, l.t.next, word))
          seenAt.set(l.instance, asked.length);
        asked.push(l);
        movedAtLook.push(wasMoved);
      }
      const w = this.words.get(word) ?? [0, 0, 0, 0];
      w[0] += asked.length;
      w[1] += seenAt.size;
      if (succeeded) {
        w[2]++;
        if (seenAt.size > 0) w[3]++;
      }
      this.words.set(word, w);
      if (seenAt.size === 0) continue;
      const firstAt = Math.min(...seenAt.values());
      const firstLook = asked[firstAt]!;
      this.learnAfter(asked, firstAt, seenAt, movedAtLook, words);
      for (const [cls, n] of perClass) {
        const key = `${cls}\u0000${word}`;
        const c = this.firsts.get(key) ?? [0, 0];
        if (cls === firstLook.cls) c[0]++;
        c[1] += n;
        this.firsts.set(key, c);
      }
      for (const key of [...words, ""]) {
        const c = this.spread.get(key) ?? [0, 0];
        c[0]++;
        c[1] += seenAt.size;
        this.spread.set(key, c);
      }
      // Looks at a place the episode saw the word at, up to the one that first showed it there (the thing may be
      // taken away after).
      asked.forEach((l, i) => {
        const at = seenAt.get(l.instance);
        if (at === undefined || i > at) return;
        for (const key of [`${l.kind}\u0000${l.cls}`, `${l.kind}\u0000`]) {
          const c = this.reveals.get(key) ?? { times: 0, sighted: 0 };
          c.times++;
          if (i === at) c.sighted++;
          this.reveals.set(key, c);
        }
      });
    }
  }

  /**
   * Looks after the episode first saw the thing, each kind of look at each place once, at places neither looked at
   * before nor changed by the agent: whether each showed the thing too.
   */
  private learnAfter(
    asked: readonly { instance: string; kind: string; cls: string }[],
    firstAt: number,
    seenAt: ReadonlyMap<string, number>,
    movedAtLook: readonly boolean[],
    words: readonly string[],
  ): void {
    const before = new Set(asked.slice(0, firstAt + 1).map((l) => l.instance));
    const counted = new Set<string>();
    asked.forEach((l, i) => {
      const look = `${l.kind}\u0000${l.cls}`;
      if (
        i <= firstAt ||
        before.has(l.instance) ||
        movedAtLook[i] ||
        counted.has(`${l.instance}\u0000${look}`)
      )
        return;
      counted.add(`${l.instance}\u0000${look}`);
      const shown = seenAt.get(l.instance) === i;
      for (const key of [...words, ""]) {
        const c = this.after.get(`${key}\u0002${look}`) ?? [0, 0];
        c[0]++;
        if (shown) c[1]++;
        this.after.set(`${key}\u0002${look}`, c);
      }
    });
  }

  /**
   * The share of places an episode had not looked at that showed the thing once it had found one, among the looks
   * of requests with this word, each look weighed by how often its kind shows a thing its place holds (a walk to a
   * closed drawer shows nothing). Undefined below MIN_KIND weighed looks.
   */
  private rateAfter(word: string): number | undefined {
    if (this.afterRates.has(word)) return this.afterRates.get(word);
    let looks = 0;
    let shown = 0;
    const prefix = `${word}\u0002`;
    for (const [key, c] of this.after) {
      if (!key.startsWith(prefix)) continue;
      const [kind, cls] = key.slice(prefix.length).split("\u0000") as [string, string];
      const reveal = this.reveal(kind, cls);
      if (reveal === undefined) continue;
      looks += c[0] * reveal;
      shown += c[1];
    }
    const rate = looks >= MIN_KIND ? Math.min(1, shown / looks) : undefined;
    this.afterRates.set(word, rate);
    return rate;
  }

  /**
   * The odds of one instance of a class of place being where the word is first found: first sightings there over
   * the instances of the class the episodes' rooms had, drawn towards the class's odds for any word. Undefined
   * where the class was met too seldom.
   */
  odds(cls: string, word: string): number | undefined {
    const pooled = this.pooledFirsts();
    const own = pooled.get(cls);
    // A class the request names is met seldom (one request in many puts things on a sidetable), but as a role it
    // is common: where a thing is to be put is seldom where it was. Without this, a sidetable the request named
    // showed whatever its analogue's page had, and a policy learnt to take the second of "two cellphones" from the
    // sidetable it was to put them on (no real room starts so).
    const any = own && own[1] >= MIN_KIND ? own : pooled.get(roleOf(cls));
    if (!any || any[1] < MIN_KIND) return undefined;
    const prior = any[0] / any[1];
    const c = this.firsts.get(`${cls}\u0000${word}`);
    // A thing first seen MIN_KIND times is where it was seen: a lamp stands by a desk or a dresser, and no bed's
    // odds for things in general put one on the bed.
    if ((this.wordFirsts.get(word) ?? 0) >= MIN_KIND) return c ? c[0] / Math.max(1, c[1]) : 0;
    return c ? (c[0] + PRIOR_WEIGHT * prior) / (c[1] + PRIOR_WEIGHT) : prior;
  }

  /**
   * Whether requests say where their things are: most first sightings of things were at a place the request names
   * whole (the folder a lookup names shows the file the request describes). Such a world is the request's, and the
   * analogue's page rewritten for this request already shows it; a world drawn by odds is for requests that do not
   * say where (an apple may be on any counter). Drawn there, it showed or hid a request's words in nearly every
   * lookup unlike the real pages (office: 324 of 327 such pages, on 1,000 test transitions).
   */
  private requestsSayWhere(): boolean {
    if (this.sayWhere === undefined) {
      let named = 0;
      let all = 0;
      for (const [key, c] of this.firsts) {
        const [cls, word] = key.split("\u0000") as [string, string];
        if (!this.isThing(word)) continue;
        all += c[0];
        if (cls.endsWith("\u0001named")) named += c[0];
      }
      this.sayWhere = all > 0 && named / all > 0.5;
    }
    return this.sayWhere;
  }

  /** First sightings and instances met by class of place, over the words that are things (isThing): made once. */
  private pooledFirsts(): Map<string, [number, number]> {
    if (this.pooled) return this.pooled;
    const pooled = new Map<string, [number, number]>();
    this.wordFirsts.clear();
    for (const [key, c] of this.firsts) {
      const [cls, word] = key.split("\u0000") as [string, string];
      this.wordFirsts.set(word, (this.wordFirsts.get(word) ?? 0) + c[0]);
      if (!this.isThing(word)) continue;
      for (const k of new Set([cls, roleOf(cls)])) {
        const p = pooled.get(k) ?? [0, 0];
        p[0] += c[0];
        p[1] += c[1];
        pooled.set(k, p);
      }
    }
    this.pooled = pooled;
    return pooled;
  }

  /** How often a look of this kind at a place that holds a word shows it. Undefined where the kind is barely known. */
  reveal(kind: string, cls: string): number | undefined {
    const any = this.reveals.get(`${kind}\u0000`);
    if (!any || any.times < MIN_KIND) return undefined;
    const base = any.sighted / any.times;
    const c = this.reveals.get(`${kind}\u0000${cls}`);
    return c ? (c.sighted + PRIOR_WEIGHT * base) / (c.times + PRIOR_WEIGHT) : base;
  }

  /**
   * How many places of a room of `roomSize` places hold a thing a request asks for, where any does: as many as real
   * episodes saw such a thing at, by the request's word that says most of it (requests for "two" of a thing saw it
   * at two places); and at least the first place and the share of every other that showed the thing to episodes
   * that had found one already. Episodes stop looking once they find the thing, so the places they saw it at
   * undercount (1.1 against the 1.5 of a search of every place); the places they look at next are chosen by what
   * the request needs then (a sink, the place to put it), not by where more of the thing is, except where the
   * request asks for more than one: the request's word whose looks showed it least says what an unsought place holds.
   */
  places(instruction: string, roomSize = 0): number {
    const any = this.spread.get("") ?? [0, 0];
    const base = any[0] > 0 ? any[1] / any[0] : 1;
    let most = base;
    let least: number | undefined;
    for (const word of [...requestWords(instruction), ""]) {
      const c = this.spread.get(word);
      if (word !== "" && c && c[0] >= MIN_KIND)
        most = Math.max(most, (c[1] + PRIOR_WEIGHT * base) / (c[0] + PRIOR_WEIGHT));
      const rate = this.rateAfter(word);
      if (rate !== undefined) least = Math.min(least ?? rate, rate);
    }
    return roomSize > 1 && least !== undefined ? Math.max(most, 1 + least * (roomSize - 1)) : most;
  }

  /**
   * Whether the word names a thing a world holds somewhere: one that most successful real episodes asking for it
   * saw at a place (an apple; not "clean", which a page shows only now and then). Without such episodes, any word
   * but one asked for in MIN_KIND looks and never shown ("put", "porch"): a word seldom asked for may be a thing the
   * offline episodes did not meet.
   */
  private isThing(word: string): boolean {
    const w = this.words.get(word);
    if (w === undefined) return true;
    if (w[2] >= MIN_SUCCESSES) return w[3] / w[2] >= 0.5;
    return !(w[1] === 0 && w[0] >= MIN_KIND);
  }

  /**
   * The places of this task's world that hold the word: one drawn by the odds of each place (the largest of log
   * odds plus a Gumbel draw: a draw from the odds, fixed by task, place and word), and each other place by its share
   * of the places beyond the first.
   */
  private world(taskId: string, instruction: string, word: string, room: ReadonlyMap<string, string>): World {
    const key = `${taskId}\u0000${word}\u0000${[...room.keys()].join("\u0001")}`;
    const known = this.worlds.get(key);
    if (known) return known;
    const odds = [...room].flatMap(([instance, cls]) => {
      const o = this.odds(cls, word);
      return o !== undefined && o > 0 ? [{ instance, odds: o }] : [];
    });
    const held = new Set<string>();
    let best: { instance: string; score: number } | undefined;
    for (const p of odds) {
      const score = gumbelScore(taskId, p.instance, word, p.odds);
      if (!best || score > best.score) best = { instance: p.instance, score };
    }
    if (best) {
      held.add(best.instance);
      const others = odds.filter((p) => p.instance !== best.instance);
      const total = others.reduce((sum, p) => sum + p.odds, 0);
      const more = Math.max(0, this.places(instruction, room.size) - 1);
      for (const p of others)
        if (draw(taskId, p.instance, word, "more") < Math.min(1, (more * p.odds) / total))
          held.add(p.instance);
    }
    const world = { held, best: best?.score ?? Number.NEGATIVE_INFINITY };
    if (this.worlds.size >= WORLDS_KEPT) this.worlds.clear();
    this.worlds.set(key, world);
    return world;
  }

  /** movesOf for an episode whose first page offers `offers`, as a string (sorted): a prediction's key holds it. */
  movesKey(
    instruction: string,
    offers: Iterable<string>,
    steps: readonly { state: Observation; action: string; next: Observation }[],
  ): string {
    const first = steps[0];
    if (!first) return "";
    const room = placesOffered(offers, first.state, instruction);
    return [...movesOf(instruction, steps, room.keys())]
      .map(([key, at]) => `${key}\u0000${at ? 1 : 0}`)
      .sort()
      .join("\u0001");
  }

  /**
   * The next state of a task's world: where the place the action looks at shows a word of the request in this
   * world and the predicted page does not (or the other way round), the page of a real transition of this kind and
   * class of place that did (or did not) show its own request's word, with that word made this request's and its
   * place this one. `offers`: the actions the episode's first page offered, whose places are this world's. Undefined
   * where the predicted page already agrees with the world.
   */
  sight(
    taskId: string,
    instruction: string,
    state: Observation,
    action: string,
    predicted: Observation,
    offers: Iterable<string>,
    /** The episode's steps so far: where the agent took a thing from or put it (movesOf) overrides the world. */
    steps: readonly { action: string; next: Observation }[] = [],
  ): { next: Observation; word: string; held: boolean; rate: number } | undefined {
    const kind = actionTemplate(action, state);
    const { cls, instance } = placeOf(action, state, instruction);
    if (instance === "") return undefined;
    if (this.requestsSayWhere()) return undefined;
    const reveal = this.reveal(kind, cls);
    if (reveal === undefined || this.odds(cls, "") === undefined) return undefined;
    let room: Map<string, string> | undefined;
    let moves: Map<string, boolean> | undefined;
    for (const word of requestWords(instruction)) {
      if (timesNamed(action, word) > 0 || !this.isThing(word)) continue;
      room ??= placesOffered(offers, state, instruction);
      moves ??= movesOf(instruction, steps, room.keys());
      const moved = moves.get(`${word}\u0000${instance}`);
      const world = this.world(taskId, instruction, word, room);
      // A place the first page did not offer (a record shown later) holds the thing where it would have been drawn
      // before every place the first page offered: decided by that place and the first page alone, so the same
      // every time it is looked at, however many places the episode has met since.
      const odds = room.has(instance) ? 0 : (this.odds(cls, word) ?? 0);
      const holds =
        moved ??
        (world.held.has(instance) || (odds > 0 && gumbelScore(taskId, instance, word, odds) > world.best));
      const held = holds && draw(taskId, instance, word, kind) < reveal;
      if (held === sighted(state, predicted, word)) continue;
      const next = this.pageFrom(kind, cls, held, word, state, action, draw(taskId, instance));
      if (next) return { next, word, held, rate: reveal };
    }
    return undefined;
  }

  /** The first kept example (from a place fixed by the draw) whose page, made this step's, agrees with the world. */
  private pageFrom(
    kind: string,
    cls: string,
    held: boolean,
    word: string,
    state: Observation,
    action: string,
    at: number,
  ): Observation | undefined {
    const key = `${kind}\u0000${cls}\u0000${held ? "sighted" : "none"}`;
    const own = held ? (this.examples.get(`${key}\u0000${word}`) ?? []) : [];
    const any = this.examples.get(key) ?? [];
    // Examples taken in a frame like this page's first (holding nothing, as here): a page is offered what its
    // frame allows (a thing seen can be taken only with hands free), and keepFrame cannot add what it lacks.
    const frame = frameOf(state.text);
    const alike = (e: Example) => {
      let n = 0;
      for (const [label, value] of frameOf(e.state.text)) if (frame.get(label) === value) n++;
      return n;
    };
    const turn = (list: Example[]) =>
      list
        .map((_, i) => list[(Math.floor(at * list.length) + i) % list.length]!)
        .map((e, i) => ({ e, i, n: alike(e) }))
        .sort((x, y) => y.n - x.n || x.i - y.i)
        .map(({ e }) => e);
    for (const example of [...turn(own), ...turn(any)]) {
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
    return {
      firsts: [...this.firsts],
      reveals: [...this.reveals],
      spread: [...this.spread],
      after: [...this.after],
      words: [...this.words],
      examples: [...this.examples],
    };
  }

  static fromData(data: SightingsData): SightingCounts {
    const sightings = new SightingCounts();
    for (const [key, c] of data.firsts) sightings.firsts.set(key, [c[0], c[1]]);
    for (const [key, c] of data.reveals) sightings.reveals.set(key, { ...c });
    for (const [key, c] of data.spread) sightings.spread.set(key, [c[0], c[1]]);
    for (const [key, c] of data.after ?? []) sightings.after.set(key, [c[0], c[1]]);
    for (const [key, c] of data.words) sightings.words.set(key, [c[0], c[1], c[2], c[3]]);
    for (const [key, e] of data.examples) sightings.examples.set(key, [...e]);
    return sightings;
  }
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
