import type { Transition } from "../types";
import type { Demonstration, ReplayBuffer, SimilarFilter, SimilarQuery } from "./buffer";
import { byScoreThenContent } from "./cosine";
import type { Embedder } from "./embedder";
import { transitionText } from "./transitionText";

/** Rows of one domain and source, with their unit vectors packed in one array: a query is one tight loop. */
class Partition {
  readonly transitions: Transition[] = [];
  vectors: Float32Array;

  constructor(readonly dimension: number) {
    this.vectors = new Float32Array(dimension * 256);
  }

  set(row: number, transition: Transition, unit: Float32Array) {
    if ((row + 1) * this.dimension > this.vectors.length) {
      const grown = new Float32Array(this.vectors.length * 2);
      grown.set(this.vectors);
      this.vectors = grown;
    }
    this.transitions[row] = transition;
    this.vectors.set(unit, row * this.dimension);
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

/**
 * A replay buffer in memory with exact cosine search: for tests and offline runs. Vectors are normalised once on
 * insert and kept per (domain, source), so a query scans only the partitions its filter allows with a dot product
 * and keeps a running top-k; it stays linear in the rows it scans, so past ~1M transitions use the LanceDB store.
 */
export class MemoryReplayBuffer implements ReplayBuffer {
  private readonly partitions = new Map<string, Partition>();
  /** Where each transition id lives, so that adding an id again replaces its row. */
  private readonly rows = new Map<string, { partition: Partition; row: number }>();

  constructor(private readonly embedder: Embedder) {}

  get size(): number {
    return this.rows.size;
  }

  async add(ts: Transition[]): Promise<void> {
    if (ts.length === 0) return;
    const vectors = await this.embedder.embed(ts.map((t) => textOf(t)));
    ts.forEach((transition, i) => {
      const vector = unit(vectors[i]!);
      const key = `${transition.domain}\u0000${transition.source}`;
      let partition = this.partitions.get(key);
      if (!partition) {
        partition = new Partition(vector.length);
        this.partitions.set(key, partition);
      }
      const existing = this.rows.get(transition.id);
      if (existing && existing.partition !== partition) {
        throw new Error(`replay buffer: transition ${transition.id} cannot move to another domain or source`);
      }
      const row = existing?.row ?? partition.transitions.length;
      partition.set(row, transition, vector);
      this.rows.set(transition.id, { partition, row });
    });
  }

  async similar(q: SimilarQuery, k: number, filter: SimilarFilter = {}): Promise<Demonstration[]> {
    if (k <= 0) return [];
    const [raw] = await this.embedder.embed([transitionText(q)]);
    const query = unit(raw!);
    const sources = filter.sources ? new Set<string>(filter.sources) : undefined;
    const excludeIds = new Set(filter.excludeIds ?? []);
    const excludeTasks = new Set(filter.excludeTaskIds ?? []);
    const best: Demonstration[] = [];
    for (const [key, partition] of this.partitions) {
      const [domain, source] = key.split("\u0000");
      if (domain !== q.domain || (sources && !sources.has(source!))) continue;
      const { vectors, transitions, dimension } = partition;
      for (let row = 0; row < transitions.length; row++) {
        let score = 0;
        const offset = row * dimension;
        for (let i = 0; i < dimension; i++) score += query[i]! * vectors[offset + i]!;
        const worst = best[best.length - 1];
        if (best.length >= k && worst && score < worst.score) continue;
        const transition = transitions[row]!;
        if (excludeIds.has(transition.id)) continue;
        if (transition.taskId !== undefined && excludeTasks.has(transition.taskId)) continue;
        const entry: Demonstration = { ...transition, score };
        if (best.length >= k && worst && byScoreThenContent(entry, worst) > 0) continue;
        // Insertion into a short sorted list: k is small, so this beats sorting every row.
        let at = best.length;
        while (at > 0 && byScoreThenContent(entry, best[at - 1]!) < 0) at--;
        best.splice(at, 0, entry);
        if (best.length > k) best.pop();
      }
    }
    return best;
  }
}

function textOf(t: Transition): string {
  return transitionText({ instruction: t.instruction, state: t.state.text, action: t.action });
}
