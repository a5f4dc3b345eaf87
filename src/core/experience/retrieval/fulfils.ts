import type { Observation } from "../../types";
import { contentWords } from "../../util/words";
import { type Fulfils, verbsUsed } from "./evidence";

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
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export class FulfilsCounts {
  private episodes = 0;
  private readonly verbs = new Map<string, number>();
  private readonly words = new Map<string, number>();
  private readonly together = new Map<string, number>();
  private readonly missing = new Map<string, number>();
  private readonly missingWith = new Map<string, number>();
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
    for (const w of contentWords(instruction)) {
      bump(this.words, w);
      for (const v of verbs) bump(this.together, `${w}\u0000${v}`);
      if (shown.has(w)) continue;
      bump(this.missing, w);
      for (const v of verbs) bump(this.missingWith, `${w}\u0000${v}`);
    }
  }

  /** What each verb does of a request's words (verb → words), from the episodes added so far. */
  fulfils(): Fulfils {
    if (this.learnt) return this.learnt;
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
    this.learnt = out;
    return out;
  }

  toData(): FulfilsData {
    return {
      episodes: this.episodes,
      verbs: [...this.verbs],
      words: [...this.words],
      together: [...this.together],
      missing: [...this.missing],
      missingWith: [...this.missingWith],
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
    return counts;
  }
}
