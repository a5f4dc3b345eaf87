import type { Prisma } from "@/generated/prisma/client";
import { isActiveStatus } from "@/shared/enums";
import { type Db, retryWhenBusy } from "../db";
import { RetentionError } from "./errors";
import { type LanceRemoval, type LanceRows, removeLanceRows } from "./lanceRows";
import {
  chunks,
  collectStepIds,
  DELETE_TRANSACTION,
  type Reader,
  type Tx,
  takeWriteLock,
} from "./transaction";

/** Everything that belongs to a run, counted: what a deletion removes. */
export interface RunContents {
  runId: string;
  name: string;
  status: string;
  trajectories: number;
  steps: number;
  annotations: number;
  metrics: number;
  taskStats: number;
  checkpoints: number;
  /** Tasks its curriculum generated (origin "generated", runId set) that nothing of another run uses. */
  generatedTasks: number;
  /**
   * Tasks its curriculum generated that another run also uses (a run of the same config and seed writes the same
   * variations): kept, and handed to that run.
   */
  sharedTasks: number;
  /** Its train jobs, whatever their status. */
  jobs: number;
}

export interface RunDeletionPreview extends RunContents {
  /** Why it cannot be deleted now ("cancel it first"), or null. */
  refusal: string | null;
}

export type RunDeletion = RunContents & LanceRemoval;

export interface DeleteRunOptions {
  /** Runs after Prisma committed and before LanceDB is touched: tests put a crash here. */
  afterCommit?: (stepIds: string[]) => Promise<void> | void;
}

/** The run's trajectories: its rollouts and evaluations. Nothing of another run, whatever task it is on. */
function ofRun(runId: string): Prisma.TrajectoryWhereInput {
  return { runId };
}

/** Rows that are not the run's own: another run's, or no run's (offline, imported, the environment server's). */
function notOf(runId: string) {
  return { OR: [{ runId: { not: runId } }, { runId: null }] };
}

/**
 * The run's generated tasks that something else uses, each with the run that inherits it (the first in id order,
 * or none when only rows of no run use it): another run's trajectory or task statistics, a variation of another
 * owner, and, transitively, the parents of those within the run's tasks (the lineage stays whole).
 */
async function sharedTasks(db: Reader, runId: string): Promise<Map<string, string | null>> {
  const own = await db.task.findMany({ where: { runId }, select: { id: true, parentId: true } });
  if (own.length === 0) return new Map();
  const heirs = new Map<string, string | null>();
  const inherit = (taskId: string, heir: string | null) => {
    const before = heirs.get(taskId);
    if (before === undefined || (heir !== null && (before === null || heir < before)))
      heirs.set(taskId, heir);
  };
  for (const slice of chunks(own.map((t) => t.id))) {
    const taskId = { in: slice };
    const users = [
      ...(await db.trajectory.findMany({
        where: { taskId, ...notOf(runId) },
        distinct: ["taskId", "runId"],
        select: { taskId: true, runId: true },
      })),
      ...(await db.taskStat.findMany({
        where: { taskId, runId: { not: runId } },
        distinct: ["taskId", "runId"],
        select: { taskId: true, runId: true },
      })),
      ...(
        await db.task.findMany({
          where: { parentId: taskId, ...notOf(runId) },
          select: { parentId: true, runId: true },
        })
      ).map((c) => ({ taskId: c.parentId as string, runId: c.runId })),
    ];
    for (const u of users) inherit(u.taskId, u.runId);
  }
  // A kept task's parent among the run's own tasks is kept too, for the same heir.
  const parentOf = new Map(own.map((t) => [t.id, t.parentId]));
  const pending = [...heirs.keys()];
  for (let child = pending.pop(); child !== undefined; child = pending.pop()) {
    const parent = parentOf.get(child);
    if (!parent || !parentOf.has(parent)) continue;
    const before = heirs.get(parent);
    inherit(parent, heirs.get(child) ?? null);
    if (before === undefined || before !== heirs.get(parent)) pending.push(parent);
  }
  return heirs;
}

/** A run's train jobs. The payload is JSON, so the match on runId is made here, as the runs router does. */
async function trainJobs(db: Reader, runId: string) {
  const jobs = await db.job.findMany({
    where: { type: "train" },
    select: { id: true, status: true, payload: true },
  });
  return jobs.filter((j) => (j.payload as { runId?: unknown } | null)?.runId === runId);
}

async function inventory(db: Reader, runId: string) {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, name: true, status: true },
  });
  if (!run) throw new RetentionError("NOT_FOUND", `No run with id ${runId}`);
  const trajectory = ofRun(runId);
  const [trajectories, steps, annotations, metrics, taskStats, checkpoints, ownTasks, shared, jobs] =
    await Promise.all([
      db.trajectory.count({ where: trajectory }),
      db.step.count({ where: { trajectory } }),
      db.annotation.count({ where: { step: { trajectory } } }),
      db.runMetric.count({ where: { runId } }),
      db.taskStat.count({ where: { runId } }),
      db.checkpoint.count({ where: { runId } }),
      db.task.count({ where: { runId } }),
      sharedTasks(db, runId),
      trainJobs(db, runId),
    ]);
  const contents: RunContents = {
    runId,
    name: run.name,
    status: run.status,
    trajectories,
    steps,
    annotations,
    metrics,
    taskStats,
    checkpoints,
    generatedTasks: ownTasks - shared.size,
    sharedTasks: shared.size,
    jobs: jobs.length,
  };
  // The run's own status says queued/running while its job waits or works; a job resumed but not yet marked
  // on the run is caught by the jobs' statuses.
  const active = isActiveStatus(run.status) ? run.status : jobs.find((j) => isActiveStatus(j.status))?.status;
  const refusal = active ? `run "${run.name}" (${runId}) is ${active}: cancel it first` : null;
  return { contents, refusal, jobIds: jobs.map((j) => j.id), shared };
}

/** What deleting the run would remove, and whether it may be deleted now. Changes nothing. */
export async function previewRunDeletion(db: Db, runId: string): Promise<RunDeletionPreview> {
  const { contents, refusal } = await inventory(db, runId);
  return { ...contents, refusal };
}

/**
 * Deletes a run with everything of it: in Prisma, in one transaction, the run (its cascades take trajectories,
 * steps, their annotations, metrics, task statistics, checkpoints and generated tasks) and its train jobs; then the
 * steps' rows in LanceDB. Generated tasks that another run also uses are handed to it first, so that their cascade
 * cannot take that run's rows. The write lock keeps any run from referencing a task between that check and the
 * commit (a run's iteration ensures its tasks inside its own transaction: saveEpisodes.ts `ensureTasks`). A queued or running run is refused: its worker would go on writing rollouts for a run
 * that no longer exists. A crash after the commit leaves only LanceDB rows without a step, which `reconcile`
 * removes; the worker's indexer, if it was writing some of these steps' rows just then, can leave the same kind.
 */
export async function deleteRun(
  db: Db,
  runId: string,
  lance: LanceRows,
  options: DeleteRunOptions = {},
): Promise<RunDeletion> {
  const { contents, stepIds } = await retryWhenBusy(() =>
    db.$transaction(async (tx) => {
      await takeWriteLock(tx);
      const { contents, refusal, jobIds, shared } = await inventory(tx, runId);
      if (refusal) throw new RetentionError("CONFLICT", refusal);
      await handOver(tx, shared);
      const stepIds = await collectStepIds(tx, { trajectory: ofRun(runId) });
      await tx.job.deleteMany({ where: { id: { in: jobIds } } });
      await tx.run.delete({ where: { id: runId } });
      return { contents: { ...contents, steps: stepIds.length }, stepIds };
    }, DELETE_TRANSACTION),
  );
  await options.afterCommit?.(stepIds);
  return { ...contents, ...(await removeLanceRows(lance, stepIds)) };
}

/** Gives each shared task to its heir, in one statement per heir. */
async function handOver(tx: Tx, heirs: Map<string, string | null>): Promise<void> {
  const byHeir = new Map<string | null, string[]>();
  for (const [taskId, heir] of heirs) byHeir.set(heir, [...(byHeir.get(heir) ?? []), taskId]);
  for (const [heir, taskIds] of byHeir)
    for (const slice of chunks(taskIds))
      await tx.task.updateMany({ where: { id: { in: slice } }, data: { runId: heir } });
}
