import * as lancedb from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";
import { z } from "zod";
import type { ReplayBuffer, SimilarFilter, SimilarQuery } from "@/core/replay/buffer";
import { byScoreThenContent } from "@/core/replay/cosine";
import { type Embedder, type EmbedderIdentity, sameEmbedder } from "@/core/replay/embedder";
import { transitionText } from "@/core/replay/transitionText";
import type { Transition } from "@/core/types";
import {
  type AnnIndexInfo,
  type AnnIndexPolicy,
  annIndexInfo,
  buildAnnIndex,
  DEFAULT_ANN_POLICY,
  DEFAULT_SEARCH_TUNING,
  type MaintenanceReport,
  maintainIndexes,
  optimize,
  type SearchTuning,
} from "./annIndex";
import { type BufferFilter, sqlString, whereClause } from "./lanceFilter";
import {
  EMBEDDER_METADATA_KEY,
  fromRow,
  RESULT_COLUMNS,
  type StoredDemonstration,
  type StoredTransition,
  TRANSITIONS_TABLE,
  toArrow,
  transitionsSchema,
} from "./lanceSchema";
import { removeUnfinishedTable } from "./unfinishedTable";

export class EmbedderMismatchError extends Error {
  constructor(
    readonly built: EmbedderIdentity | undefined,
    readonly configured: EmbedderIdentity,
  ) {
    const was = built ? `embedder ${built.id} (dim ${built.dimension})` : "an unrecorded embedder";
    super(
      `the replay buffer was built with ${was} but the configured embedder is ${configured.id} ` +
        `(dim ${configured.dimension}); run \`npm run cli -- reindex\``,
    );
    this.name = "EmbedderMismatchError";
  }
}

export interface LanceBufferOptions {
  dir: string;
  embedder: Embedder;
  ann?: Partial<AnnIndexPolicy>;
  search?: Partial<SearchTuning>;
  /**
   * Seconds between checks for writes by other processes (the worker writes, the web reads); 0 checks on every
   * read. Writes through this store are always seen at once.
   */
  readConsistencySeconds?: number;
}

const EmbedderRecord = z.object({ id: z.string().min(1), dimension: z.number().int().positive() });

const ANN_RECHECK_MS = 30_000;

/** Ids per `IN (...)` list: keeps the SQL of a delete or a count to a reasonable size. */
const ID_CHUNK = 1_000;

/**
 * The replay buffer on LanceDB: one row per transition (the Prisma Step id is the row id), searched by cosine
 * similarity with a `where` prefilter on domain and source. Prisma stays the source of truth: this table is a
 * rebuildable index of it (syncSteps.ts keeps them in step).
 */
export class LanceReplayBuffer implements ReplayBuffer {
  /** Serialises writes and index maintenance within this process (LanceDB retries conflicts across processes). */
  private writes: Promise<unknown> = Promise.resolve();
  private annChecked = { at: 0, present: false };

  private constructor(
    private readonly connection: lancedb.Connection,
    private readonly table: lancedb.Table,
    private readonly schema: Schema,
    readonly embedder: Embedder,
    readonly policy: AnnIndexPolicy,
    readonly tuning: SearchTuning,
    /** True when this open created the table: whatever Prisma marked as indexed before is not in it. */
    readonly created: boolean,
  ) {}

  static async open(options: LanceBufferOptions): Promise<LanceReplayBuffer> {
    const { embedder } = options;
    await removeUnfinishedTable(options.dir, TRANSITIONS_TABLE);
    const connection = await lancedb.connect(options.dir, {
      readConsistencyInterval: options.readConsistencySeconds,
    });
    const schema = transitionsSchema(embedder);
    const existed = (await connection.tableNames()).includes(TRANSITIONS_TABLE);
    // existOk: another process may create the table between the check and this call.
    const table = existed
      ? await connection.openTable(TRANSITIONS_TABLE)
      : await connection.createEmptyTable(TRANSITIONS_TABLE, schema, { mode: "create", existOk: true });
    const built = await LanceReplayBuffer.recordedEmbedder(table);
    if (!built || !sameEmbedder(built, embedder)) {
      table.close();
      connection.close();
      throw new EmbedderMismatchError(built, embedder);
    }
    return new LanceReplayBuffer(
      connection,
      table,
      schema,
      embedder,
      { ...DEFAULT_ANN_POLICY, ...options.ann },
      { ...DEFAULT_SEARCH_TUNING, ...options.search },
      !existed,
    );
  }

  /** The embedder recorded in the table's schema, with the vector column's actual dimension as a check. */
  private static async recordedEmbedder(table: lancedb.Table): Promise<EmbedderIdentity | undefined> {
    const schema = await table.schema();
    const raw = schema.metadata.get(EMBEDDER_METADATA_KEY);
    if (raw === undefined) return undefined;
    const parsed = EmbedderRecord.safeParse(parseJson(raw));
    const vector = schema.fields.find((f) => f.name === "vector");
    const dimension = (vector?.type as { listSize?: number } | undefined)?.listSize;
    if (!parsed.success || parsed.data.dimension !== dimension) return undefined;
    return parsed.data;
  }

  /** The embedder recorded in the table of `dir`, or undefined when there is no table yet. */
  static async builtWith(dir: string): Promise<EmbedderIdentity | undefined> {
    await removeUnfinishedTable(dir, TRANSITIONS_TABLE);
    const connection = await lancedb.connect(dir);
    try {
      if (!(await connection.tableNames()).includes(TRANSITIONS_TABLE)) return undefined;
      const table = await connection.openTable(TRANSITIONS_TABLE);
      const built = await LanceReplayBuffer.recordedEmbedder(table);
      table.close();
      return built ?? { id: "unknown", dimension: 0 };
    } finally {
      connection.close();
    }
  }

  static async drop(dir: string): Promise<void> {
    const connection = await lancedb.connect(dir);
    try {
      if ((await connection.tableNames()).includes(TRANSITIONS_TABLE))
        await connection.dropTable(TRANSITIONS_TABLE);
    } finally {
      connection.close();
    }
  }

  close(): void {
    this.table.close();
    this.connection.close();
  }

  async add(ts: Transition[]): Promise<void> {
    await this.upsert(ts.map((t) => ({ trajectoryId: "", runId: null, iteration: null, ...t })));
  }

  /** Embeds and writes rows; a row whose id is already there is replaced, so writing twice never duplicates. */
  async upsert(rows: StoredTransition[]): Promise<void> {
    const unique = lastById(rows);
    if (unique.length === 0) return;
    const texts = unique.map(textOf);
    const vectors = await this.embedder.embed(texts);
    await this.upsertEmbedded(unique, texts, vectors);
  }

  /** Writes rows whose texts are already embedded (the benchmark times the two apart). */
  async upsertEmbedded(rows: StoredTransition[], texts: string[], vectors: Float32Array[]): Promise<void> {
    if (rows.length === 0) return;
    if (vectors.length !== rows.length || texts.length !== rows.length) {
      throw new Error(
        `upsertEmbedded: ${rows.length} rows, ${texts.length} texts, ${vectors.length} vectors`,
      );
    }
    const data = toArrow(this.schema, rows, texts, vectors, this.embedder.dimension);
    await this.exclusive(() =>
      this.table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data),
    );
  }

  async similar(q: SimilarQuery, k: number, filter: SimilarFilter = {}): Promise<StoredDemonstration[]> {
    const [vector] = await this.embedder.embed([textOf(q)]);
    return this.nearest(vector!, k, { ...filter, domain: q.domain });
  }

  /** Embeds a free text as is (not as a transition) and searches with it. */
  async searchText(text: string, k: number, filter: BufferFilter = {}): Promise<StoredDemonstration[]> {
    const [vector] = await this.embedder.embed([text]);
    return this.nearest(vector!, k, filter);
  }

  /**
   * The k rows nearest to a vector by cosine, best first. `exact` skips the ANN index (a full scan of the
   * filtered rows): the benchmark's ground truth.
   */
  async nearest(
    vector: Float32Array,
    k: number,
    filter: BufferFilter = {},
    options: { exact?: boolean; tuning?: Partial<SearchTuning> } = {},
  ): Promise<StoredDemonstration[]> {
    const columns = [...RESULT_COLUMNS, "_distance"];
    const rows = await this.search(
      vector,
      k,
      filter,
      { ...this.tuning, ...options.tuning },
      columns,
      options.exact,
    );
    return rows.map(fromRow).sort(byScoreThenContent);
  }

  /** Ids and cosine scores only: the bare cost of a search, without reading rows (the benchmark's floor). */
  async nearestIds(
    vector: Float32Array,
    k: number,
    filter: BufferFilter = {},
    tuning: Partial<SearchTuning> = {},
  ): Promise<{ id: string; score: number }[]> {
    const rows = (await this.search(vector, k, filter, { ...this.tuning, ...tuning }, [
      "id",
      "_distance",
    ])) as {
      id: string;
      _distance: number;
    }[];
    return rows.map((r) => ({ id: r.id, score: 1 - r._distance }));
  }

  private async search(
    vector: Float32Array,
    k: number,
    filter: BufferFilter,
    tuning: SearchTuning,
    columns: string[],
    exact = false,
  ): Promise<unknown[]> {
    if (k <= 0 || isZero(vector)) return [];
    const where = whereClause(filter);
    const query = () => {
      const q = this.table
        .vectorSearch(vector)
        .distanceType("cosine")
        .select(columns)
        .limit(k)
        .nprobes(tuning.nprobes)
        // HNSW needs at least as many candidates as the rows it hands on (k, times the refine factor).
        .ef(Math.max(tuning.ef, k * Math.max(1, tuning.refineFactor)));
      const refined = tuning.refineFactor > 0 ? q.refineFactor(tuning.refineFactor) : q;
      return exact ? refined.bypassVectorIndex() : refined;
    };
    if (!where) return query().toArray();
    // Without an ANN index the search is a full scan anyway, and filtering first makes it smaller.
    if (tuning.postfilter && !exact && (await this.hasAnnIndex())) {
      const rows: unknown[] = await query().where(where).postfilter().toArray();
      if (rows.length >= k) return rows;
    }
    return query().where(where).toArray();
  }

  /** Whether the table has an ANN index, rechecked now and then (another process may have built it). */
  private async hasAnnIndex(): Promise<boolean> {
    const now = Date.now();
    if (now - this.annChecked.at > ANN_RECHECK_MS) {
      this.annChecked = { at: now, present: (await annIndexInfo(this.table)) !== undefined };
    }
    return this.annChecked.present;
  }

  /** The stored vector of a row, or undefined when the row is not (yet) in the table. */
  async vectorOf(id: string): Promise<Float32Array | undefined> {
    const rows: { vector?: { toArray(): Float32Array } }[] = await this.table
      .query()
      .where(`\`id\` = ${sqlString(id)}`)
      .select(["vector"])
      .limit(1)
      .toArray();
    return rows[0]?.vector ? Float32Array.from(rows[0].vector.toArray()) : undefined;
  }

  async count(filter: BufferFilter = {}): Promise<number> {
    return this.table.countRows(whereClause(filter));
  }

  /** Which of these ids have a row (for checks against Prisma). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = ids.slice(i, i + ID_CHUNK);
      const rows: { id: string }[] = await this.table
        .query()
        .where(`\`id\` IN (${chunk.map(sqlString).join(", ")})`)
        .select(["id"])
        .toArray();
      for (const row of rows) found.add(row.id);
    }
    return found;
  }

  /**
   * Every id in the table, in batches (a million ids fit in memory, but need not be held twice). Read at the
   * latest version, not the one the read-consistency interval last saw: the audit and reconcile compare these ids
   * with the database, and a writer thread or another process may have added rows a moment ago.
   */
  async *ids(): AsyncGenerator<string[]> {
    await this.table.checkoutLatest();
    for await (const batch of this.table.query().select(["id"])) {
      const column = batch.getChild("id");
      if (!column) continue;
      yield Array.from(column.toArray() as ArrayLike<string>, String);
    }
  }

  async deleteIds(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = ids.slice(i, i + ID_CHUNK);
      await this.exclusive(() => this.table.delete(`\`id\` IN (${chunk.map(sqlString).join(", ")})`));
    }
  }

  annIndex(): Promise<AnnIndexInfo | undefined> {
    return annIndexInfo(this.table);
  }

  /** Builds or refreshes indices as the table grows (see annIndex.ts); cheap when there is nothing to do. */
  maintain(): Promise<MaintenanceReport> {
    return this.indexing(() => maintainIndexes(this.table, this.policy));
  }

  /** Compacts write fragments and folds unindexed rows into the existing indices. */
  async optimize(): Promise<void> {
    await this.exclusive(() => optimize(this.table));
  }

  /** Trains the ANN index now, whatever the table's size (the benchmark, and tests with small tables). */
  buildAnnIndex(policy: Partial<AnnIndexPolicy> = {}): Promise<AnnIndexInfo> {
    return this.indexing(() => buildAnnIndex(this.table, { ...this.policy, ...policy }));
  }

  /** Index work, after which searches look again at whether there is an ANN index. */
  private indexing<T>(work: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      try {
        return await work();
      } finally {
        this.annChecked = { at: 0, present: false };
      }
    });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work, work);
    this.writes = run.catch(() => undefined);
    return run;
  }
}

function textOf(t: { instruction?: string; state: string | { text: string }; action: string }): string {
  return transitionText({
    ...(t.instruction !== undefined ? { instruction: t.instruction } : {}),
    state: typeof t.state === "string" ? t.state : t.state.text,
    action: t.action,
  });
}

/** mergeInsert wants each key once per batch; the last write of an id wins, as it would across batches. */
function lastById(rows: StoredTransition[]): StoredTransition[] {
  const byId = new Map<string, StoredTransition>();
  for (const row of rows) {
    byId.delete(row.id);
    byId.set(row.id, row);
  }
  return [...byId.values()];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isZero(vector: Float32Array): boolean {
  return vector.every((x) => x === 0);
}
