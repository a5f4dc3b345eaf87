/**
 * An inverted-file index (IVF, as FAISS and LanceDB build it) over unit vectors packed in one array: spherical
 * k-means cells, each row listed under its nearest centroid; a query scans the rows of the `nprobe` cells whose
 * centroids are nearest to it. Deterministic: centroids start from rows at a fixed stride and Lloyd's iterations
 * visit rows in order, so the same rows give the same index on every machine.
 */

/** Dot product of `a` at offset `ao` with `b` at offset `bo`, four lanes at a time. */
export function dotAt(a: Float32Array, ao: number, b: Float32Array, bo: number, dimension: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dimension; i += 4) {
    s0 += a[ao + i]! * b[bo + i]!;
    s1 += a[ao + i + 1]! * b[bo + i + 1]!;
    s2 += a[ao + i + 2]! * b[bo + i + 2]!;
    s3 += a[ao + i + 3]! * b[bo + i + 3]!;
  }
  for (; i < dimension; i++) s0 += a[ao + i]! * b[bo + i]!;
  return s0 + s1 + (s2 + s3);
}

/** Lloyd's iterations: enough for cells that route queries well; more buy little recall for their cost. */
const KMEANS_ITERATIONS = 4;
/** Rows k-means trains on at most (a fixed stride over all of them). */
const TRAINING_ROWS = 16_384;

export interface IvfSettings {
  /** Cells: about √rows, as FAISS advises. */
  cells: number;
  /** Cells a query scans. */
  probes: number;
}

export function ivfSettings(rows: number): IvfSettings {
  const cells = Math.max(16, Math.min(1024, Math.round(Math.sqrt(rows))));
  return { cells, probes: Math.max(8, Math.ceil(cells / 8)) };
}

export class IvfIndex {
  readonly centroids: Float32Array;
  /** Rows of each cell, in the order they were added. */
  readonly lists: number[][];
  /** Rows when the index was trained: it is trained again when the partition has doubled. */
  readonly trainedOn: number;

  constructor(
    vectors: Float32Array,
    rows: number,
    readonly dimension: number,
    readonly settings: IvfSettings = ivfSettings(rows),
  ) {
    this.trainedOn = rows;
    const { cells } = settings;
    this.centroids = new Float32Array(cells * dimension);
    const stride = Math.max(1, Math.floor(rows / cells));
    for (let c = 0; c < cells; c++)
      this.centroids.set(
        vectors.subarray(c * stride * dimension, (c * stride + 1) * dimension),
        c * dimension,
      );
    const step = Math.max(1, Math.floor(rows / TRAINING_ROWS));
    for (let iteration = 0; iteration < KMEANS_ITERATIONS; iteration++) {
      const sums = new Float64Array(cells * dimension);
      for (let row = 0; row < rows; row += step) {
        const c = this.nearest(vectors, row * dimension);
        for (let i = 0; i < dimension; i++) sums[c * dimension + i]! += vectors[row * dimension + i]!;
      }
      // Spherical k-means: each centroid is its cell's mean direction (a cell left empty keeps its centroid).
      for (let c = 0; c < cells; c++) {
        let norm = 0;
        for (let i = 0; i < dimension; i++) norm += sums[c * dimension + i]! ** 2;
        if (norm === 0) continue;
        const inv = 1 / Math.sqrt(norm);
        for (let i = 0; i < dimension; i++)
          this.centroids[c * dimension + i] = sums[c * dimension + i]! * inv;
      }
    }
    this.lists = Array.from({ length: cells }, () => []);
    for (let row = 0; row < rows; row++) this.add(vectors, row);
  }

  /** Lists a row under its nearest cell. */
  add(vectors: Float32Array, row: number): void {
    this.lists[this.nearest(vectors, row * this.dimension)]!.push(row);
  }

  /** The cells nearest to the query, nearest first: scan their `lists`. */
  probe(query: Float32Array): number[] {
    const { cells, probes } = this.settings;
    const scores = new Float64Array(cells);
    for (let c = 0; c < cells; c++)
      scores[c] = dotAt(query, 0, this.centroids, c * this.dimension, this.dimension);
    const order = Array.from({ length: cells }, (_, c) => c).sort((a, b) => scores[b]! - scores[a]! || a - b);
    return order.slice(0, probes);
  }

  /** The rows of the cells nearest to the query, cell by cell. */
  candidates(query: Float32Array): number[] {
    return this.probe(query).flatMap((c) => this.lists[c]!);
  }

  private nearest(vectors: Float32Array, offset: number): number {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < this.settings.cells; c++) {
      const score = dotAt(vectors, offset, this.centroids, c * this.dimension, this.dimension);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best;
  }
}
