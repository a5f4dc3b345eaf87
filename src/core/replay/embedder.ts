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
