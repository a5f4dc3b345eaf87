import type { TrajectorySource, Transition } from "../types";

/** What the experience model is about to predict: the current state and the agent's action, in a domain. */
export interface SimilarQuery {
  domain: string;
  state: string;
  action: string;
  instruction?: string;
}

export interface SimilarFilter {
  /** e.g. offline only, to ground the model in real experience alone; all sources when absent. */
  sources?: TrajectorySource[];
  excludeIds?: string[];
  /** Keeps held-out tasks from leaking their own transitions into the prompt. */
  excludeTaskIds?: string[];
}

/** A transition retrieved for a query, with its cosine similarity to it (1 = same direction). */
export type Demonstration = Transition & { score: number };

/**
 * The replay buffer (ARCHITECTURE.md "Contracts"): offline transitions of the real environment plus every
 * synthetic one, searched by similarity to ground the experience model's predictions.
 */
export interface ReplayBuffer {
  /** Idempotent by transition id: adding the same id again replaces it, never duplicates it. */
  add(ts: Transition[]): Promise<void>;
  /** The k most similar transitions of the query's domain, best first. */
  similar(q: SimilarQuery, k: number, filter?: SimilarFilter): Promise<Demonstration[]>;
}
