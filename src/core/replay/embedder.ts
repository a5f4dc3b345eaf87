import { LRUCache } from "lru-cache";
/** Turns texts into fixed-size vectors whose cosine similarity measures how alike the texts are. */
export interface Embedder {
  /** Kind, version and dimension, e.g. "hash-ngram-v1-256": vectors from different ids must never be mixed. */
  readonly id: string;
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export interface EmbedderIdentity {
  id: string;
  dimension: number;
}

export function sameEmbedder(a: EmbedderIdentity, b: EmbedderIdentity): boolean {
  return a.id === b.id && a.dimension === b.dimension;
}

/**
 * An embedder that remembers the vectors of recent texts. A DreamGym run's rollouts repeat each other (a group
 * shares its first steps; a settled policy repeats whole episodes), so most transitions its writer indexes have
 * a text embedded before. Each caller gets its own copy of a vector.
 */
export class RememberingEmbedder implements Embedder {
  private readonly vectors: LRUCache<string, Float32Array>;

  constructor(
    private readonly inner: Embedder,
    texts = 20_000,
  ) {
    this.vectors = new LRUCache({ max: texts });
  }

  get id(): string {
    return this.inner.id;
  }

  get dimension(): number {
    return this.inner.dimension;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const known = new Map<string, Float32Array>();
    for (const text of texts) {
      const vector = this.vectors.get(text);
      if (vector) known.set(text, vector);
    }
    const fresh = [...new Set(texts.filter((t) => !known.has(t)))];
    if (fresh.length > 0) {
      const vectors = await this.inner.embed(fresh);
      fresh.forEach((text, i) => {
        known.set(text, vectors[i]!);
        this.vectors.set(text, vectors[i]!);
      });
    }
    return texts.map((text) => known.get(text)!.slice());
  }
}
