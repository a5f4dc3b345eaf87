import { z } from "zod";
import type { Embedder } from "@/core/replay/embedder";
import { TrajectorySource } from "@/shared/enums";
import type { Db } from "../db";
import { clearEmbedderSetting } from "./embedderSetting";
import type { MaintenanceReport } from "./lanceIndex";
import type { StoredTransition } from "./lanceSchema";
import { LanceReplayStore } from "./lanceStore";
import { openReplayStore } from "./openStore";

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

export const STEP_SELECT = {
  id: true,
  state: true,
  stateActions: true,
  action: true,
  nextState: true,
  nextActions: true,
  reward: true,
  done: true,
  success: true,
  valid: true,
  trajectoryId: true,
  trajectory: {
    select: {
      domain: true,
      source: true,
      taskId: true,
      runId: true,
      iteration: true,
      task: { select: { instruction: true } },
    },
  },
} as const;

const Actions = z.array(z.string()).nullable();

interface StepRow {
  id: string;
  state: string;
  stateActions: unknown;
  action: string;
  nextState: string;
  nextActions: unknown;
  reward: number;
  done: boolean;
  success: boolean;
  valid: boolean;
  trajectoryId: string;
  trajectory: {
    domain: string;
    source: string;
    taskId: string;
    runId: string | null;
    iteration: number | null;
    task: { instruction: string };
  };
}

/** A Step row as the replay buffer keeps it; the database's strings and JSON are checked, not trusted. */
export function stepToTransition(step: StepRow): StoredTransition {
  const where = `step ${step.id}`;
  const source = TrajectorySource.safeParse(step.trajectory.source);
  if (!source.success) throw new Error(`${where}: unknown trajectory source "${step.trajectory.source}"`);
  const stateActions = Actions.safeParse(step.stateActions ?? null);
  const nextActions = Actions.safeParse(step.nextActions ?? null);
  if (!stateActions.success || !nextActions.success) {
    throw new Error(`${where}: stateActions and nextActions must be arrays of strings`);
  }
  return {
    id: step.id,
    trajectoryId: step.trajectoryId,
    domain: step.trajectory.domain,
    source: source.data,
    taskId: step.trajectory.taskId,
    runId: step.trajectory.runId,
    iteration: step.trajectory.iteration,
    instruction: step.trajectory.task.instruction,
    state: { text: step.state, ...(stateActions.data ? { actions: stateActions.data } : {}) },
    action: step.action,
    next: { text: step.nextState, ...(nextActions.data ? { actions: nextActions.data } : {}) },
    reward: step.reward,
    done: step.done,
    success: step.success,
    valid: step.valid,
  };
}

/**
 * Writes every step that Prisma has not marked as indexed into the replay buffer: embed, write to LanceDB,
 * THEN mark `indexedAt`. A crash between the write and the mark leaves the steps unmarked, so the next run
 * writes them again, and since writes are idempotent by id, that leaves no duplicate and no gap.
 */
export async function indexPendingSteps(
  db: Db,
  store: LanceReplayStore,
  options: IndexPendingOptions = {},
): Promise<IndexPendingResult> {
  const batchSize = options.batchSize ?? 256;
  const total = await db.step.count({ where: { indexedAt: null } });
  let indexed = 0;
  // Walk by id so that every round makes progress, even if a mark is lost (the step was deleted meanwhile).
  let cursor: string | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    const steps = await db.step.findMany({
      where: { indexedAt: null, ...(cursor !== undefined ? { id: { gt: cursor } } : {}) },
      orderBy: { id: "asc" },
      take: batchSize,
      select: STEP_SELECT,
    });
    if (steps.length === 0) break;
    const ids = steps.map((s) => s.id);
    await store.upsert(steps.map(stepToTransition));
    await options.afterWrite?.(ids);
    await db.step.updateMany({ where: { id: { in: ids } }, data: { indexedAt: new Date() } });
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
 * pending, and indexes them all. Safe to interrupt: a table that is missing or new when the store is next
 * opened makes openReplayStore mark every step pending again.
 */
export async function reindex(db: Db, options: ReindexOptions): Promise<IndexPendingResult> {
  const { lancedbDir, embedder, ...indexOptions } = options;
  await LanceReplayStore.drop(lancedbDir);
  await db.step.updateMany({ where: { indexedAt: { not: null } }, data: { indexedAt: null } });
  await clearEmbedderSetting(db);
  const store = await openReplayStore({ lancedbDir, embedder, db });
  try {
    return await indexPendingSteps(db, store, indexOptions);
  } finally {
    store.close();
  }
}
