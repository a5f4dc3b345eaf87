import { Index, type Table } from "@lancedb/lancedb";

/**
 * When and how the replay buffer's table gets its indices. Below `minRows` a search is an exact scan, which is
 * fast enough and needs no training; above it an ANN index over the vectors, plus scalar indices on the columns
 * that every search filters on.
 */
export interface AnnIndexPolicy {
  kind: "ivf_pq" | "ivf_hnsw_sq";
  /** Build the ANN index once the table has this many rows. */
  minRows: number;
  /** IVF partitions = rows / rowsPerPartition (at least 1): the unit of work a probe scans. */
  rowsPerPartition: number;
  /** PQ sub-vectors (ivf_pq only): dimension / numSubVectors values per code byte. */
  numSubVectors: number;
  /** New rows are scanned exactly until optimize() folds them into the index; fold them past this share. */
  maxUnindexedFraction: number;
  /** Retrain (new partitions and codebooks) once the table has grown by this factor since training. */
  retrainGrowth: number;
}

/** Query-time knobs of the ANN index. */
export interface SearchTuning {
  /** Partitions probed per query: more is slower and closer to exact. */
  nprobes: number;
  /** Re-rank refineFactor × k candidates by their exact vectors (PQ distances are approximate); 0 = off. */
  refineFactor: number;
  /** HNSW candidate list size (ivf_hnsw_sq only). */
  ef: number;
  /**
   * Filter after the ANN search instead of before it, and search again with the prefilter only when fewer than
   * k rows pass. Neighbours of a query are nearly all of its own domain, so the filter rarely removes any, and
   * a prefilter makes LanceDB check a row mask at every candidate.
   */
  postfilter: boolean;
}

/**
 * Measured with bench/retrieval.ts on real-environment transitions (256-d hash embedder, top-8 filtered by
 * domain, 2 shared cores; figures in the bench's header):
 * - IVF_PQ beat IVF_HNSW_SQ at 1M rows: trained in 131 s against 370 s (10 partitions) or 459 s (1 partition),
 *   recall@8 0.996 against 0.97–0.98 at similar or lower latency. HNSW's graph walk pays for the domain filter
 *   at every node; PQ's partition scan barely notices it.
 * - ~4,096 rows per partition (√N-ish: 24 at 100k, 244 at 1M), 32 sub-vectors (8 dimensions per code byte):
 *   without refinement PQ alone reaches only ~0.82 recall on these vectors, so a refine factor of 5 re-ranks 40
 *   candidates by their exact vectors (recall 0.99+, and the scores returned are exact cosines).
 * - nprobes 10: 5 loses ~0.005 recall, 20 gains ~0.001 for more time.
 * - minRows 20,000: an exact scan costs ~0.7 ms per thousand rows here (67 ms at 100k), so below ~20k it is as
 *   fast as the ANN path and needs no training.
 */
export const DEFAULT_ANN_POLICY: AnnIndexPolicy = {
  kind: "ivf_pq",
  minRows: 20_000,
  rowsPerPartition: 4_096,
  numSubVectors: 32,
  maxUnindexedFraction: 0.1,
  retrainGrowth: 4,
};

export const DEFAULT_SEARCH_TUNING: SearchTuning = { nprobes: 10, refineFactor: 5, ef: 32, postfilter: true };

const ANN_PREFIX = "vector_ann_n";
const SCALAR_INDICES = [
  { column: "id", name: "id_btree", config: () => Index.btree() },
  { column: "domain", name: "domain_bitmap", config: () => Index.bitmap() },
  { column: "source", name: "source_bitmap", config: () => Index.bitmap() },
] as const;

export interface AnnIndexInfo {
  name: string;
  indexType: string;
  /** Rows when the index was trained (kept in its name, since optimize() later adds rows without retraining). */
  trainedRows: number;
  indexedRows: number;
  unindexedRows: number;
}

export async function annIndexInfo(table: Table): Promise<AnnIndexInfo | undefined> {
  const ann = (await table.listIndices()).find((i) => i.name.startsWith(ANN_PREFIX));
  if (!ann) return undefined;
  const stats = await table.indexStats(ann.name);
  return {
    name: ann.name,
    indexType: ann.indexType,
    trainedRows: Number(ann.name.slice(ANN_PREFIX.length)) || 0,
    indexedRows: stats?.numIndexedRows ?? 0,
    unindexedRows: stats?.numUnindexedRows ?? 0,
  };
}

export function annParameters(policy: AnnIndexPolicy, rows: number) {
  const numPartitions = Math.max(1, Math.round(rows / policy.rowsPerPartition));
  return policy.kind === "ivf_pq"
    ? { kind: policy.kind, numPartitions, numSubVectors: policy.numSubVectors }
    : { kind: policy.kind, numPartitions };
}

/** Trains the ANN index on the whole table, replacing the previous one. */
export async function buildAnnIndex(table: Table, policy: AnnIndexPolicy): Promise<AnnIndexInfo> {
  const rows = await table.countRows();
  const previous = await annIndexInfo(table);
  const params = annParameters(policy, rows);
  const config =
    params.kind === "ivf_pq"
      ? Index.ivfPq({
          distanceType: "cosine",
          numPartitions: params.numPartitions,
          numSubVectors: params.numSubVectors,
        })
      : Index.hnswSq({ distanceType: "cosine", numPartitions: params.numPartitions });
  const name = `${ANN_PREFIX}${rows}`;
  await table.createIndex("vector", { config, name, replace: true });
  if (previous && previous.name !== name) await table.dropIndex(previous.name);
  const built = await annIndexInfo(table);
  if (!built) throw new Error("the ANN index was created but LanceDB does not list it");
  return built;
}

export interface MaintenanceReport {
  rows: number;
  built: boolean;
  retrained: boolean;
  optimized: boolean;
  scalarIndices: string[];
}

/**
 * Keeps the indices in step with the table: trains the ANN index once there are enough rows, retrains it when
 * the table has outgrown its partitions, and compacts small write fragments and folds new rows into the
 * indices when too many rows are only reachable by an exact scan.
 */
export async function maintainIndexes(table: Table, policy: AnnIndexPolicy): Promise<MaintenanceReport> {
  const rows = await table.countRows();
  const report: MaintenanceReport = {
    rows,
    built: false,
    retrained: false,
    optimized: false,
    scalarIndices: [],
  };
  if (rows < policy.minRows) {
    if (await tooFragmented(table)) report.optimized = await optimize(table);
    return report;
  }

  const existing = new Set((await table.listIndices()).map((i) => i.name));
  for (const scalar of SCALAR_INDICES) {
    if (existing.has(scalar.name)) continue;
    await table.createIndex(scalar.column, { config: scalar.config(), name: scalar.name, replace: true });
    report.scalarIndices.push(scalar.name);
  }

  const ann = await annIndexInfo(table);
  if (!ann || rows >= ann.trainedRows * policy.retrainGrowth) {
    // Compact first: an index built over many small fragments is remapped by every later compaction.
    if (await tooFragmented(table)) report.optimized = await optimize(table);
    await buildAnnIndex(table, policy);
    report.built = !ann;
    report.retrained = ann !== undefined;
    return report;
  }
  if (ann.unindexedRows > rows * policy.maxUnindexedFraction || (await tooFragmented(table))) {
    report.optimized = await optimize(table);
  }
  return report;
}

/** Every write batch is a file; a scan opens them all, so many small ones slow every search down. */
async function tooFragmented(table: Table): Promise<boolean> {
  return (await table.stats()).fragmentStats.numSmallFragments > 16;
}

/** Compacts fragments and folds unindexed rows into the indices (without retraining them). */
export async function optimize(table: Table): Promise<true> {
  // Old versions are kept an hour for readers in other processes that may still be on them.
  await table.optimize({ cleanupOlderThan: new Date(Date.now() - 3_600_000) });
  return true;
}
