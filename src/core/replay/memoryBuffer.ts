import type { Transition } from "../types";
import type { Demonstration, ReplayBuffer, SimilarFilter, SimilarQuery } from "./buffer";
import { byScoreThenContentOf } from "./cosine";
import type { Embedder } from "./embedder";
import { IvfIndex } from "./ivf";
import { transitionText } from "./transitionText";
import { SCORE_BATCH, VectorStore } from "./vectorStore";

/**
 * The transitions of one domain and source, grouped by the text they are retrieved by, with one unit vector per
 * text packed in one array: a query is one tight loop over distinct texts. Synthetic rollouts repeat themselves
 * (a third of a long DreamGym run's transitions are distinct), so a group stands for all its copies.
 */
class Partition {
  /** The transitions of each text; a text never loses its row, though its last transition may move away. */
  readonly members: Transition[][] = [];
  readonly rowOfText = new Map<string, number>();
  /** Every (row, transition) added, in order: a remembered answer catches up by scanning only what came after. */
  readonly log: { row: number; transition: Transition }[] = [];
  readonly store: VectorStore;
  /** Past `exactUpTo` distinct texts, the index a query scans instead of every row. */
  ivf: IvfIndex | undefined;

  constructor(readonly dimension: number) {
    this.store = new VectorStore(dimension, 256);
  }

  get rows(): number {
    return this.members.length;
  }

  addText(text: string, unit: Float32Array): number {
    const row = this.members.length;
    this.store.set(row, unit);
    this.members.push([]);
    this.rowOfText.set(text, row);
    this.ivf?.add(this.store.vectors, row);
    return row;
  }

  /** Builds the index once the partition is past `exactUpTo` rows, and trains it again each time they double. */
  reindex(exactUpTo: number): void {
    if (this.rows < exactUpTo || (this.ivf && this.rows < 2 * this.ivf.trainedOn)) return;
    this.ivf = new IvfIndex(this.store.vectors, this.rows, this.dimension);
  }

  /**
   * Scores every row a query reaches (all of them, or those of the index's nearest cells) against it, in batches:
   * `visit` reads the first `count` of the store's batchRows and batchScores. The query must be the store's.
   */
  scan(query: Float32Array, visit: (count: number) => void): void {
    const { store } = this;
    let count = 0;
    const flush = () => {
      store.scoreBatch(count);
      visit(count);
      count = 0;
    };
    const rows = store.batchRows;
    if (this.ivf) {
      for (const cell of this.ivf.probe(query))
        for (const row of this.ivf.lists[cell]!) {
          rows[count++] = row;
          if (count === SCORE_BATCH) flush();
        }
    } else {
      for (let row = 0; row < this.members.length; row++) {
        rows[count++] = row;
        if (count === SCORE_BATCH) flush();
      }
    }
    if (count > 0) flush();
  }
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  if (norm === 0) return vector; // no direction: every cosine with it is 0
  const scaled = new Float32Array(vector.length);
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) scaled[i] = vector[i]! * inv;
  return scaled;
}

/** A query's answer so far, and how much of each partition's log it has seen. */
interface Answer {
  query: Float32Array;
  best: Demonstration[];
  seen: Map<Partition, number>;
}

/** Distinct texts a partition holds before queries go through an IVF index instead of scanning every row. */
export const EXACT_SEARCH_UP_TO = 2_048;
/** Remembered answers at most; past it they are all forgotten at the next add (see `answers`). */
const ANSWERS_LIMIT = 50_000;

export interface MemoryReplayBufferOptions {
  /** Exact search up to this many distinct texts per partition; an IVF index past it. */
  exactUpTo?: number;
}

/**
 * A replay buffer in memory with cosine search: for runs, tests and offline work. Vectors are normalised once per
 * distinct text and kept per (domain, source), so a query scans only the partitions its filter allows and keeps
 * a running top-k. Search is exact up to `exactUpTo` distinct texts per partition (the offline data of a domain);
 * past it, a DreamGym run's growing synthetic partition goes through an IVF index (the cells nearest the query),
 * as LanceDB's would: per query a few thousand rows instead of every one. The top-k is the same whatever order
 * rows are scanned in (ties are ordered by content), so grouping copies of a text changes no answer.
 */
export class MemoryReplayBuffer implements ReplayBuffer {
  private readonly partitions = new Map<string, Partition>();
  /** Where each transition id lives, so that adding an id again replaces it. */
  private readonly rows = new Map<string, { partition: Partition; row: number }>();
  /**
   * Remembered answers. The same query comes back often (a group's rollouts take the same first steps, and a
   * third of a long DreamGym run's steps are new), and the buffer only grows between iterations: an answer is
   * brought up to date by scoring just the transitions added since, which gives the same top-k as a full scan.
   * Replacing a transition (adding an id again) forgets them all. Bounded, about 1 KB an answer: past the bound
   * they are all forgotten at the next add, never during an iteration, so whether a query finds its answer
   * remembered does not depend on the order concurrent rollouts asked in (with the index, a remembered answer
   * and a fresh search may differ).
   */
  private readonly answers = new Map<string, Answer>();
  private readonly exactUpTo: number;

  constructor(
    private readonly embedder: Embedder,
    options: MemoryReplayBufferOptions = {},
  ) {
    this.exactUpTo = options.exactUpTo ?? EXACT_SEARCH_UP_TO;
  }

  get size(): number {
    return this.rows.size;
  }

  /** Distinct texts held, over every partition: what a query scans at most. */
  get distinctTexts(): number {
    let n = 0;
    for (const p of this.partitions.values()) n += p.rows;
    return n;
  }

  /** Every transition held, in the order first added (what an experience model can learn from). */
  *transitions(): Generator<Transition> {
    for (const [id, { partition, row }] of this.rows) {
      const transition = partition.members[row]!.find((t) => t.id === id);
      if (transition) yield transition;
    }
  }

  async add(ts: Transition[]): Promise<void> {
    if (ts.length === 0) return;
    if (this.answers.size > ANSWERS_LIMIT) this.answers.clear();
    const texts = ts.map((t) => textOf(t));
    // Only texts the partition has not seen are embedded (the same text always gets the same vector).
    const fresh = [...new Set(texts.filter((text, i) => !this.partitionOf(ts[i]!)?.rowOfText.has(text)))];
    const vectors = fresh.length > 0 ? await this.embedder.embed(fresh) : [];
    const vectorOf = new Map(fresh.map((text, i) => [text, unit(vectors[i]!)]));
    ts.forEach((transition, i) => {
      const text = texts[i]!;
      const key = partitionKey(transition);
      let partition = this.partitions.get(key);
      if (!partition) {
        partition = new Partition(vectorOf.get(text)!.length);
        this.partitions.set(key, partition);
      }
      const existing = this.rows.get(transition.id);
      if (existing && existing.partition !== partition) {
        throw new Error(`replay buffer: transition ${transition.id} cannot move to another domain or source`);
      }
      if (existing) {
        this.answers.clear();
        const group = partition.members[existing.row]!;
        group.splice(
          group.findIndex((t) => t.id === transition.id),
          1,
        );
      }
      const row = partition.rowOfText.get(text) ?? partition.addText(text, vectorOf.get(text)!);
      partition.members[row]!.push(transition);
      partition.log.push({ row, transition });
      this.rows.set(transition.id, { partition, row });
    });
    for (const partition of this.partitions.values()) partition.reindex(this.exactUpTo);
  }

  async similar(q: SimilarQuery, k: number, filter: SimilarFilter = {}): Promise<Demonstration[]> {
    if (k <= 0) return [];
    const text = transitionText(q);
    const key = JSON.stringify([q.domain, text, k, filter.sources, filter.excludeIds, filter.excludeTaskIds]);
    const hit = this.answers.get(key);
    if (hit) {
      this.catchUp(hit, q.domain, k, filter);
      return [...hit.best];
    }
    const answer = await this.search(q.domain, text, k, filter);
    this.answers.set(key, answer);
    return [...answer.best];
  }

  /** The partitions a query with this filter scans. */
  private *scanned(domain: string, filter: SimilarFilter): Generator<Partition> {
    const sources = filter.sources ? new Set<string>(filter.sources) : undefined;
    for (const [key, partition] of this.partitions) {
      const [partitionDomain, source] = key.split("\u0000");
      if (partitionDomain !== domain || (sources && !sources.has(source!))) continue;
      yield partition;
    }
  }

  private partitionOf(t: Transition): Partition | undefined {
    return this.partitions.get(partitionKey(t));
  }

  private async search(domain: string, text: string, k: number, filter: SimilarFilter): Promise<Answer> {
    const [raw] = await this.embedder.embed([text]);
    const query = unit(raw!);
    const offer = offerTo([], k, filter);
    const seen = new Map<Partition, number>();
    for (const partition of this.scanned(domain, filter)) {
      const { members, store } = partition;
      store.setQuery(query);
      partition.scan(query, (count) => {
        const { batchRows, batchScores } = store;
        for (let k = 0; k < count; k++) {
          const score = batchScores[k]!;
          if (!offer.admits(score)) continue;
          for (const transition of members[batchRows[k]!]!) offer.add(transition, score);
        }
      });
      seen.set(partition, partition.log.length);
    }
    return { query, best: offer.result(), seen };
  }

  private catchUp(answer: Answer, domain: string, k: number, filter: SimilarFilter): void {
    const offer = offerTo(answer.best, k, filter);
    for (const partition of this.scanned(domain, filter)) {
      const { store, log } = partition;
      store.setQuery(answer.query);
      for (let i = answer.seen.get(partition) ?? 0; i < log.length; i++) {
        const { row, transition } = log[i]!;
        const score = store.score(row);
        if (offer.admits(score)) offer.add(transition, score);
      }
      answer.seen.set(partition, log.length);
    }
    answer.best = offer.result();
  }
}

/**
 * A running top-k, best first, that transitions are offered to. The result does not depend on the order they are
 * offered in: ties are ordered by content (byScoreThenContent). A scan admits a transition to the running top-k
 * a hundred times or so for the k it returns, so an entry becomes a demonstration (a copy) only in `result`, and
 * the demonstrations it started from stay the same objects (experience models remember work by them).
 */
function offerTo(start: Demonstration[], k: number, filter: SimilarFilter) {
  const excludeIds = new Set(filter.excludeIds ?? []);
  const excludeTasks = new Set(filter.excludeTaskIds ?? []);
  const best: { transition: Transition; score: number; demo?: Demonstration }[] = start.map((demo) => ({
    transition: demo,
    score: demo.score,
    demo,
  }));
  return {
    /** False when nothing with this score can enter: the list is full of better ones. */
    admits(score: number): boolean {
      const worst = best[best.length - 1];
      return !(best.length >= k && worst && score < worst.score);
    },
    add(transition: Transition, score: number): void {
      if (excludeIds.has(transition.id)) return;
      if (transition.taskId !== undefined && excludeTasks.has(transition.taskId)) return;
      const last = best[best.length - 1];
      if (
        best.length >= k &&
        last &&
        byScoreThenContentOf(score, transition, last.score, last.transition) > 0
      )
        return;
      // Insertion into a short sorted list: k is small, so this beats sorting every row.
      let at = best.length;
      while (
        at > 0 &&
        byScoreThenContentOf(score, transition, best[at - 1]!.score, best[at - 1]!.transition) < 0
      )
        at--;
      best.splice(at, 0, { transition, score });
      if (best.length > k) best.pop();
    },
    result(): Demonstration[] {
      return best.map((e) => e.demo ?? { ...e.transition, score: e.score });
    },
  };
}

function partitionKey(t: Transition): string {
  return `${t.domain}\u0000${t.source}`;
}

function textOf(t: Transition): string {
  return transitionText({ instruction: t.instruction, state: t.state.text, action: t.action });
}
