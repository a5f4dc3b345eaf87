import type { Prisma } from "@/generated/prisma/client";
import { isActiveStatus } from "@/shared/enums";
import { type Db, retryWhenBusy } from "../db";
import { RetentionError } from "./errors";
import { type LanceRemoval, type LanceRows, removeLanceRows } from "./lanceRows";
import { collectStepIds, DELETE_TRANSACTION, type Reader, takeWriteLock } from "./transaction";

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
  /** Tasks its curriculum generated (origin "generated", runId set). */
  generatedTasks: number;
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

/**
 * The run's trajectories: its rollouts, and any episode of a task its curriculum generated (the task's cascade
 * takes those too, so their steps' rows must go with them).
 */
function ofRun(runId: string): Prisma.TrajectoryWhereInput {
  return { OR: [{ runId }, { task: { runId } }] };
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
  const [trajectories, steps, annotations, metrics, taskStats, checkpoints, generatedTasks, jobs] =
    await Promise.all([
      db.trajectory.count({ where: trajectory }),
      db.step.count({ where: { trajectory } }),
      db.annotation.count({ where: { step: { trajectory } } }),
      db.runMetric.count({ where: { runId } }),
      db.taskStat.count({ where: { runId } }),
      db.checkpoint.count({ where: { runId } }),
      db.task.count({ where: { runId } }),
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
    generatedTasks,
    jobs: jobs.length,
  };
  // The run's own status says queued/running while its job waits or works; a job resumed but not yet marked
  // on the run is caught by the jobs' statuses.
  const active = isActiveStatus(run.status) ? run.status : jobs.find((j) => isActiveStatus(j.status))?.status;
  const refusal = active ? `run "${run.name}" (${runId}) is ${active}: cancel it first` : null;
  return { contents, refusal, jobIds: jobs.map((j) => j.id) };
}

/** What deleting the run would remove, and whether it may be deleted now. Changes nothing. */
export async function previewRunDeletion(db: Db, runId: string): Promise<RunDeletionPreview> {
  const { contents, refusal } = await inventory(db, runId);
  return { ...contents, refusal };
}

/**
 * Deletes a run with everything of it: in Prisma, in one transaction, the run (its cascades take trajectories,
 * steps, their annotations, metrics, task statistics, checkpoints and generated tasks) and its train jobs; then the
 * steps' rows in LanceDB. A queued or running run is refused: its worker would go on writing rollouts for a run
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
      const { contents, refusal, jobIds } = await inventory(tx, runId);
      if (refusal) throw new RetentionError("CONFLICT", refusal);
      const stepIds = await collectStepIds(tx, { trajectory: ofRun(runId) });
      await tx.job.deleteMany({ where: { id: { in: jobIds } } });
      await tx.run.delete({ where: { id: runId } });
      return { contents: { ...contents, steps: stepIds.length }, stepIds };
    }, DELETE_TRANSACTION),
  );
  await options.afterCommit?.(stepIds);
  return { ...contents, ...(await removeLanceRows(lance, stepIds)) };
}
