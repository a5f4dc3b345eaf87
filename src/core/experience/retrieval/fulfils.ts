import type { Observation } from "../../types";
import { contentWords } from "../../util/words";
import { type Fulfils, repeatsOf, verbsUsed } from "./evidence";

/**
 * Which actions do what a request's words ask where the end of an episode does not show it, learnt from the
 * successful real episodes of the offline data: a word of the instruction that neither the last page nor the last
 * action shows ("hot" in "put a hot egg on the table", whose episode ends with "put egg 1 in/on table 1"), and a
 * verb that nearly every such episode used ("heat") while episodes whose instruction lacks the word rarely did. An
 * ending is then read with the steps that did it (evidence.ts episodeTrace): without them, putting the egg down
 * unheated showed as much of the request as the experts' endings, and was paid as a success.
 */

/** Episodes with the word missing at their end before the memory says which verbs do it. */
const MIN_EPISODES = 5;
/** The share of those episodes that used the verb. */
const SUPPORT = 0.9;
/** The most the verb may be used in successful episodes whose instruction lacks the word: a verb every episode uses
 * (walking, taking) does nothing particular. */
const BASE_RATE = 0.2;

/** Uses of a verb made again in successful episodes before the memory says where they differ. */
const MIN_REPEATS = 20;
/**
 * The share of those repeats that differed at an argument place for it to tell uses apart (Fulfils.apart). In the
 * household's offline data, takes made again differed in the thing 83 times of 91 (in the place 67), puts 83 of 85
 * (in the place 2); the shop's clicks made again differed 691 times of 855, and tell nothing apart.
 */
const APART = 0.85;

export interface FulfilsData {
  episodes: number;
  /** Successful episodes using each verb. */
  verbs: [verb: string, episodes: number][];
  /** Successful episodes whose instruction has each word. */
  words: [word: string, episodes: number][];
  /** … and that used the verb too (key: word, NUL, verb). */
  together: [key: string, episodes: number][];
  /** Successful episodes whose end does not show the word. */
  missing: [word: string, episodes: number][];
  /** … and that used the verb (key: word, NUL, verb). */
  missingWith: [key: string, episodes: number][];
  /** Uses made again (evidence.ts repeatsOf) by verb: how many, and how many differed at each argument place. */
  repeats?: [verb: string, times: number, differ: number[]][];
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export class FulfilsCounts {
  private episodes = 0;
  private readonly verbs = new Map<string, number>();
  private readonly words = new Map<string, number>();
  private readonly together = new Map<string, number>();
  private readonly missing = new Map<string, number>();
  private readonly missingWith = new Map<string, number>();
  private readonly repeats = new Map<string, { times: number; differ: number[] }>();
  private learnt: Fulfils | undefined;

  /** A successful real episode: its instruction, its valid actions and its last step. */
  add(instruction: string, actions: readonly string[], last: { state: Observation; action: string }) {
    this.learnt = undefined;
    this.episodes++;
    // A verb used again on what the request names is a verb of its own ("put again" does the "two" of "put two
    // books …").
    const verbs = verbsUsed(actions, instruction);
    const echo = instruction.trim().toLowerCase();
    const shown = new Set(
      contentWords(`${last.state.text.toLowerCase().replaceAll(echo, " ")}\n${last.action}`),
    );
    for (const v of verbs) bump(this.verbs, v);
    for (const { verb, differ } of repeatsOf(actions, instruction)) {
      const r = this.repeats.get(verb) ?? { times: 0, differ: [] };
      r.times++;
      for (const p of differ) r.differ[p] = (r.differ[p] ?? 0) + 1;
      this.repeats.set(verb, r);
    }
    for (const w of contentWords(instruction)) {
      bump(this.words, w);
      for (const v of verbs) bump(this.together, `${w}\u0000${v}`);
      if (shown.has(w)) continue;
      bump(this.missing, w);
      for (const v of verbs) bump(this.missingWith, `${w}\u0000${v}`);
    }
  }

  /** What each verb does of a request's words, and where its uses made again differ, from the episodes so far. */
  fulfils(): Fulfils {
    if (this.learnt) return this.learnt;
    const apart = new Map<string, number[]>();
    for (const [verb, { times, differ }] of this.repeats) {
      if (times < MIN_REPEATS) continue;
      const places = [...differ.keys()].filter((p) => (differ[p] ?? 0) / times >= APART);
      if (places.length > 0) apart.set(verb, places);
    }
    const out = new Map<string, Set<string>>();
    for (const [key, n] of this.missingWith) {
      const [word, verb] = key.split("\u0000") as [string, string];
      const missing = this.missing.get(word) ?? 0;
      if (missing < MIN_EPISODES || n / missing < SUPPORT) continue;
      const without = this.episodes - (this.words.get(word) ?? 0);
      const usedWithout = (this.verbs.get(verb) ?? 0) - (this.together.get(key) ?? 0);
      if (without < MIN_EPISODES || usedWithout / without > BASE_RATE) continue;
      const words = out.get(verb) ?? new Set<string>();
      words.add(word);
      out.set(verb, words);
    }
    this.learnt = { does: out, apart };
    return this.learnt;
  }

  toData(): FulfilsData {
    return {
      episodes: this.episodes,
      verbs: [...this.verbs],
      words: [...this.words],
      together: [...this.together],
      missing: [...this.missing],
      missingWith: [...this.missingWith],
      repeats: [...this.repeats].map(([verb, r]) => [verb, r.times, [...r.differ].map((n) => n ?? 0)]),
    };
  }

  static fromData(data: FulfilsData): FulfilsCounts {
    const counts = new FulfilsCounts();
    counts.episodes = data.episodes;
    for (const [k, n] of data.verbs) counts.verbs.set(k, n);
    for (const [k, n] of data.words) counts.words.set(k, n);
    for (const [k, n] of data.together) counts.together.set(k, n);
    for (const [k, n] of data.missing) counts.missing.set(k, n);
    for (const [k, n] of data.missingWith) counts.missingWith.set(k, n);
    for (const [verb, times, differ] of data.repeats ?? [])
      counts.repeats.set(verb, { times, differ: [...differ] });
    return counts;
  }
}
