import type { Embedder } from "@/core/replay/embedder";
import { config } from "@/env";
import { sqlDate } from "../bulkInsert";
import type { Db } from "../db";
import { withLock } from "../lock";
import { executeUnsafe } from "../sql/dialect";
import type { MaintenanceReport } from "./annIndex";
import { createEmbedder } from "./createEmbedder";
import { clearEmbedderSetting } from "./embedderSetting";
import { LanceReplayBuffer } from "./lanceReplayBuffer";
import { openReplayBuffer } from "./openReplayBuffer";
import { forgetReplayBuffer, withReplayBuffer } from "./sharedReplayBuffer";
import { selectStepRows, stepToTransition } from "./stepTransition";

export interface IndexProgress {
  indexed: number;
  total: number;
}

export interface IndexPendingOptions {
  /** Steps embedded and written per round trip (default 256). */
  batchSize?: number;
  onProgress?: (progress: IndexProgress) => void;
  signal?: AbortSignal;
  /** Build or refresh indices at the end (default true). */
  maintain?: boolean;
  /** Runs after a batch is in LanceDB and before Prisma marks it: tests put a crash here. */
  afterWrite?: (ids: string[]) => Promise<void> | void;
}

export interface IndexPendingResult {
  indexed: number;
  total: number;
  maintenance?: MaintenanceReport;
}

/** The lock that writers of the replay buffer's rows take, one process at a time. */
export const REPLAY_WRITE_LOCK = "replay.write";

/**
 * Writes every step that Prisma has not marked as indexed into the replay buffer: embed, write to LanceDB,
 * THEN mark `indexedAt`. A crash between the write and the mark leaves the steps unmarked, so the next run
 * writes them again, and since writes are idempotent by id, that leaves no duplicate and no gap. They are
 * idempotent only one process at a time (two concurrent merge-inserts of one id both insert it), so indexing
 * holds the replay buffer's write lock; another process that wants to index waits, then finds little left.
 */
export async function indexPendingSteps(
  db: Db,
  store: LanceReplayBuffer,
  options: IndexPendingOptions = {},
): Promise<IndexPendingResult> {
  return withLock(
    db,
    REPLAY_WRITE_LOCK,
    (signal) => indexPendingLocked(db, store, { ...options, signal }),
    options.signal ? { signal: options.signal } : {},
  );
}

async function indexPendingLocked(
  db: Db,
  store: LanceReplayBuffer,
  options: IndexPendingOptions,
): Promise<IndexPendingResult> {
  const batchSize = options.batchSize ?? 256;
  const total = await db.step.count({ where: { indexedAt: null } });
  let indexed = 0;
  // Walk by id so that every round makes progress, even if a mark is lost (the step was deleted meanwhile).
  let cursor: string | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    // Raw: the index walks every step a run writes, and Prisma's nested select costs four times this query.
    const steps = await selectStepRows(
      db,
      `s."indexedAt" IS NULL AND s.id > ? ORDER BY s.id LIMIT ?`,
      cursor ?? "",
      batchSize,
    );
    if (steps.length === 0) break;
    const ids = steps.map((s) => s.id);
    await store.upsert(steps.map(stepToTransition));
    await options.afterWrite?.(ids);
    const marked = await executeUnsafe(
      db,
      `UPDATE "Step" SET "indexedAt" = ? WHERE id IN (${ids.map(() => "?").join(", ")})`,
      sqlDate(new Date()),
      ...ids,
    );
    // Steps deleted while their rows were being written (a run's or an import's deletion, which removes the rows
    // it knew of after its commit): the rows just written for them go too, or they would belong to no step.
    if (marked < ids.length) {
      const still = new Set(
        (await db.step.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((s) => s.id),
      );
      const vanished = ids.filter((id) => !still.has(id));
      if (vanished.length > 0) await store.deleteIds(vanished);
    }
    cursor = ids[ids.length - 1];
    indexed += steps.length;
    options.onProgress?.({ indexed, total: Math.max(total, indexed) });
  }
  const maintenance = options.maintain === false ? undefined : await store.maintain();
  return { indexed, total: Math.max(total, indexed), ...(maintenance ? { maintenance } : {}) };
}

export interface ReindexOptions extends Omit<IndexPendingOptions, "afterWrite"> {
  lancedbDir: string;
  embedder: Embedder;
}

/**
 * Rebuilds the replay buffer from Prisma, e.g. after a change of embedder: drops the table, marks every step
 * pending (openReplayBuffer does, finding the table missing), and indexes them all. Safe to interrupt: a table
 * that is missing or new when the store is next opened makes openReplayBuffer mark every step pending again.
 */
export async function reindex(db: Db, options: ReindexOptions): Promise<IndexPendingResult> {
  const { lancedbDir, embedder, ...indexOptions } = options;
  await LanceReplayBuffer.drop(lancedbDir);
  await clearEmbedderSetting(db);
  const store = await openReplayBuffer({ lancedbDir, embedder, db });
  try {
    return await indexPendingSteps(db, store, indexOptions);
  } finally {
    store.close();
  }
}

/** What the worker and the CLI pass to the wrappers below, which sync the process's shared, configured buffer. */
export interface IndexHooks {
  onProgress?: (indexed: number, total: number) => void;
  signal?: AbortSignal;
  /** Steps embedded and written per LanceDB write (indexPendingSteps' default when absent). */
  batchSize?: number;
}

/** Brings the replay buffer up to date with Prisma: every step written since the last run goes into LanceDB. */
export async function indexPending(db: Db, hooks: IndexHooks = {}): Promise<IndexPendingResult> {
  return withReplayBuffer(db, (store) =>
    indexPendingSteps(db, store, {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(hooks.batchSize ? { batchSize: hooks.batchSize } : {}),
      onProgress: (p) => hooks.onProgress?.(p.indexed, p.total),
    }),
  );
}

/** Drops and rebuilds the replay buffer from Prisma with the configured embedder. */
export async function rebuildIndex(db: Db, hooks: IndexHooks = {}): Promise<IndexPendingResult> {
  await forgetReplayBuffer();
  const result = await reindex(db, {
    lancedbDir: config().lancedbDir,
    embedder: await createEmbedder(config()),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    onProgress: (p) => hooks.onProgress?.(p.indexed, p.total),
  });
  await forgetReplayBuffer();
  return result;
}
