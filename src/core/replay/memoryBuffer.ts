import type { Transition } from "../types";
import type { Demonstration, ReplayBuffer, SimilarFilter, SimilarQuery } from "./buffer";
import { byScoreThenId, cosine } from "./cosine";
import type { Embedder } from "./embedder";
import { transitionText } from "./transitionText";

interface Entry {
  transition: Transition;
  vector: Float32Array;
}

/**
 * A replay buffer in memory with exact cosine search: for tests and small offline runs. Linear in the number of
 * transitions per query, so past ~50k transitions use the LanceDB store instead.
 */
export class MemoryReplayBuffer implements ReplayBuffer {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly embedder: Embedder) {}

  get size(): number {
    return this.entries.size;
  }

  async add(ts: Transition[]): Promise<void> {
    if (ts.length === 0) return;
    const vectors = await this.embedder.embed(ts.map((t) => textOf(t)));
    ts.forEach((transition, i) => {
      this.entries.set(transition.id, { transition, vector: vectors[i]! });
    });
  }

  async similar(q: SimilarQuery, k: number, filter: SimilarFilter = {}): Promise<Demonstration[]> {
    if (k <= 0) return [];
    const [query] = await this.embedder.embed([transitionText(q)]);
    const sources = filter.sources ? new Set(filter.sources) : undefined;
    const excludeIds = new Set(filter.excludeIds ?? []);
    const excludeTasks = new Set(filter.excludeTaskIds ?? []);
    const scored: Demonstration[] = [];
    for (const { transition, vector } of this.entries.values()) {
      if (transition.domain !== q.domain) continue;
      if (sources && !sources.has(transition.source)) continue;
      if (excludeIds.has(transition.id)) continue;
      if (transition.taskId !== undefined && excludeTasks.has(transition.taskId)) continue;
      scored.push({ ...transition, score: cosine(query!, vector) });
    }
    return scored.sort(byScoreThenId).slice(0, k);
  }
}

function textOf(t: Transition): string {
  return transitionText({ instruction: t.instruction, state: t.state.text, action: t.action });
}
