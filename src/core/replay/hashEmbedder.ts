import { combine, mix } from "../util/random";
import type { Embedder } from "./embedder";
import { FeatureCounts } from "./featureCounts";
import { splitTransitionText } from "./transitionText";

/**
 * The default embedder (the embedded backend's): no model, no network, the same vector for the same text on every machine.
 * Signed feature hashing (Weinberger et al. 2009) of three views of the text, each with sublinear term frequency
 * (1 + ln tf, so a word repeated ten times does not drown the rest) and normalised on its own before they are
 * mixed, so that each view's share of the cosine is fixed by its weight rather than by how many features it has:
 * - word unigrams (the entities: products, objects, receptacles, colours);
 * - word bigrams (order and short phrases: "go to", "buy now", "cabinet 3");
 * - character 3-grams of each word, with boundary marks (plurals, misspellings, product codes that share stems).
 * The sign bit makes collisions cancel on average instead of adding up, so cosines stay unbiased.
 *
 * A text written by transitionText has two sections, context (task and state) and action, each with its own
 * features and its own share of the vector (ACTION_SHARE); any other text is all context.
 */

/**
 * 256 dimensions. A transition's text has roughly 100–400 distinct features; at 256 buckets the collision noise
 * on a cosine is about 1/√256 ≈ 0.06, well below the gap between a near-duplicate (cos ≳ 0.8) and a merely
 * similar page (cos ≈ 0.4–0.6). Measured on real rollouts (similarity of the true next state to the top-8
 * neighbours' next states), 128/256/512/1024/4096 dimensions give shop 0.657/0.675/0.679/0.683/0.683 and
 * household 0.773/0.775/0.777/0.777/0.779: past 256 the gain is under 1%. At 1M rows 256-d vectors take 1 GB as
 * float32 (512 would take 2 GB and double exact-search time), and 256 splits evenly into PQ sub-vectors.
 */
export const HASH_EMBEDDER_DIMENSION = 256;
const VERSION = "v1";

/** Squared-norm shares of the three views within a section (they sum to 1). */
const VIEW_SHARES = [0.5, 0.3, 0.2] as const;
const UNIGRAM = 0;
const BIGRAM = 1;
const TRIGRAM = 2;

/**
 * The action's squared-norm share of a transition's vector; the context (task and state) has the rest. Measured
 * on real rollouts (similarity of the true next state to the top-8 neighbours' next states, queries from
 * held-out tasks), action share 0 / 0.2 / 0.3 / 0.4 / 0.5: shop 0.61 / 0.68 / 0.69 / 0.69 / 0.68, household
 * 0.51 / 0.70 / 0.74 / 0.79 / 0.83. The household keeps rising because its next states echo the action ("You
 * arrive at cabinet 3"), which flatters the measure; about a third keeps the state the larger part (where the
 * agent is still decides what the page or room shows next) and takes most of the gain in both domains.
 */
export const ACTION_SHARE = 0.35;
const CONTEXT = 0;
const ACTION = 4;

/** √(section share × view share) for each feature group; groups are indexed by section | view. */
function groupScales(actionShare: number): number[] {
  const scales = new Array<number>(8).fill(0);
  for (const [section, share] of [
    [CONTEXT, 1 - actionShare],
    [ACTION, actionShare],
  ] as const) {
    VIEW_SHARES.forEach((view, i) => {
      scales[section | i] = Math.sqrt(share * view);
    });
  }
  return scales;
}
const SECTIONED = groupScales(ACTION_SHARE);
const WHOLE = groupScales(0);

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c > 127;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export class HashNgramEmbedder implements Embedder {
  readonly id: string;
  readonly dimension: number;
  private readonly mask: number;
  /** Reused between texts: feature key (section and view in the low 3 bits) → count. */
  private readonly counts = new FeatureCounts();

  constructor(dimension: number = HASH_EMBEDDER_DIMENSION) {
    if (!Number.isInteger(dimension) || dimension < 8 || (dimension & (dimension - 1)) !== 0) {
      throw new Error(`HashNgramEmbedder: dimension must be a power of two >= 8, got ${dimension}`);
    }
    this.dimension = dimension;
    this.mask = dimension - 1;
    this.id = `hash-ngram-${VERSION}-${dimension}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    this.counts.clear();
    const sections = splitTransitionText(text);
    if (sections) {
      this.count(sections.context, CONTEXT);
      this.count(sections.action, ACTION);
    } else {
      this.count(text, CONTEXT);
    }
    return this.project(sections ? SECTIONED : WHOLE);
  }

  private count(text: string, section: number): void {
    const counts = this.counts;
    const lower = text.toLowerCase();
    const bump = (hash: number, view: number) => counts.bump(((hash & ~7) | section | view) >>> 0);

    let previous = -1;
    let i = 0;
    const n = lower.length;
    while (i < n) {
      let c = lower.charCodeAt(i);
      if (!isWordChar(c)) {
        i++;
        continue;
      }
      // One word: letters and digits, keeping a decimal point between digits ("14.79" is one price).
      let word = 0x811c9dc5;
      let a = 0x3c; // "<": the boundary mark before the word's first character
      let b = -1;
      while (i < n) {
        c = lower.charCodeAt(i);
        const decimal =
          c === 46 &&
          i + 1 < n &&
          isDigit(lower.charCodeAt(i + 1)) &&
          i > 0 &&
          isDigit(lower.charCodeAt(i - 1));
        if (!isWordChar(c) && !decimal) break;
        word = Math.imul(word ^ c, 0x01000193);
        if (b >= 0) bump(mix((a << 16) ^ (b << 8) ^ c ^ 0x5bd1e995), TRIGRAM);
        a = b >= 0 ? b : a;
        b = c;
        i++;
      }
      bump(mix((a << 16) ^ (b << 8) ^ 0x3e ^ 0x5bd1e995), TRIGRAM); // the boundary mark after the last character
      word = mix(word);
      bump(word, UNIGRAM);
      if (previous >= 0) bump(combine(previous, word), BIGRAM);
      previous = word;
    }
  }

  /** Hashes the counted features into the vector: 1 + ln(tf), each group normalised, then weighted. */
  private project(scales: number[]): Float32Array {
    const { keys, counts, size } = this.counts;
    const norms = new Float64Array(8);
    for (let e = 0; e < size; e++) {
      const w = 1 + Math.log(counts[e]!);
      norms[keys[e]! & 7]! += w * w;
    }
    const scale = new Float64Array(8);
    for (let group = 0; group < 8; group++) {
      const s = norms[group]!;
      scale[group] = s > 0 ? scales[group]! / Math.sqrt(s) : 0;
    }
    const vector = new Float32Array(this.dimension);
    for (let e = 0; e < size; e++) {
      const key = keys[e]!;
      const h = mix(key ^ 0x27d4eb2f);
      const w = (1 + Math.log(counts[e]!)) * scale[key & 7]!;
      vector[h & this.mask]! += h & 0x80000000 ? -w : w;
    }
    return normalise(vector);
  }
}

/**
 * Unit length (the views were normalised, but hashing collisions change the total norm a little). An empty
 * text stays the zero vector: it has no direction and matches nothing.
 */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (sum === 0) return vector;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! *= inv;
  return vector;
}
