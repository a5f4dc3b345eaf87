import type { Prisma } from "@/generated/prisma/client";
import { isActiveStatus } from "@/shared/enums";
import { type Db, retryWhenBusy } from "../db";
import { RetentionError } from "./errors";
import { type LanceRemoval, type LanceRows, removeLanceRows } from "./lanceRows";
import { chunks, collectStepIds, DELETE_TRANSACTION, type Reader, takeWriteLock } from "./transaction";

/** One import: the trajectories imported under one name (the file's name), as the import list shows it. */
export interface ImportListing {
  name: string;
  trajectories: number;
  steps: number;
  domains: string[];
  firstImportedAt: Date;
  lastImportedAt: Date;
}

export interface ImportContents {
  name: string;
  trajectories: number;
  steps: number;
  annotations: number;
  /** Imported tasks that no other trajectory (and no run's statistics) uses: they go with the import. */
  tasks: number;
}

export interface ImportDeletionPreview extends ImportContents {
  refusal: string | null;
}

export type ImportDeletion = ImportContents & LanceRemoval;

export interface DeleteImportOptions {
  /** Runs after Prisma committed and before LanceDB is touched: tests put a crash here. */
  afterCommit?: (stepIds: string[]) => Promise<void> | void;
}

/** Every import, newest first. Imported steps are never added to later, so a trajectory's length is its steps. */
export async function listImports(db: Db): Promise<ImportListing[]> {
  const [groups, domains] = await Promise.all([
    db.trajectory.groupBy({
      by: ["importName"],
      where: { importName: { not: null } },
      _count: { _all: true },
      _sum: { length: true },
      _min: { createdAt: true },
      _max: { createdAt: true },
    }),
    db.trajectory.groupBy({ by: ["importName", "domain"], where: { importName: { not: null } } }),
  ]);
  return groups
    .map((g) => ({
      name: g.importName as string,
      trajectories: g._count._all,
      steps: g._sum.length ?? 0,
      domains: domains
        .filter((d) => d.importName === g.importName)
        .map((d) => d.domain)
        .sort(),
      firstImportedAt: g._min.createdAt as Date,
      lastImportedAt: g._max.createdAt as Date,
    }))
    .sort((a, b) => b.lastImportedAt.getTime() - a.lastImportedAt.getTime() || a.name.localeCompare(b.name));
}

/**
 * The imported tasks of these trajectories that nothing else holds on to: no trajectory of another import (or of
 * none), no run's task statistics. A seed or generated task that an import happened to name is never removed.
 */
function orphanTasks(name: string, taskIds: string[]): Prisma.TaskWhereInput {
  return {
    id: { in: taskIds },
    origin: "imported",
    trajectories: { every: { importName: name } },
    stats: { none: {} },
  };
}

async function inventory(db: Reader, name: string) {
  const trajectory = { importName: name };
  const taskIds = (
    await db.trajectory.findMany({ where: trajectory, distinct: ["taskId"], select: { taskId: true } })
  ).map((t) => t.taskId);
  const trajectories = await db.trajectory.count({ where: trajectory });
  if (trajectories === 0) throw new RetentionError("NOT_FOUND", `No import named ${name}`);
  let tasks = 0;
  for (const slice of chunks(taskIds)) tasks += await db.task.count({ where: orphanTasks(name, slice) });
  const contents: ImportContents = {
    name,
    trajectories,
    steps: await db.step.count({ where: { trajectory } }),
    annotations: await db.annotation.count({ where: { step: { trajectory } } }),
    tasks,
  };
  // An import of the same name still waiting for the worker would bring (some of) it back right after.
  const jobs = await db.job.findMany({ where: { type: "import" }, select: { status: true, payload: true } });
  const pending = jobs.find(
    (j) => isActiveStatus(j.status) && (j.payload as { name?: unknown } | null)?.name === name,
  );
  const refusal = pending
    ? `an import of ${name} is ${pending.status}: let it finish (or cancel it) first`
    : null;
  return { contents, refusal, taskIds };
}

/** What deleting the import would remove, and whether it may be deleted now. Changes nothing. */
export async function previewImportDeletion(db: Db, name: string): Promise<ImportDeletionPreview> {
  const { contents, refusal } = await inventory(db, name);
  return { ...contents, refusal };
}

/**
 * Deletes every trajectory imported under `name` with its steps and their annotations, the imported tasks left
 * without a trajectory, and then the steps' rows in LanceDB. Prisma first, in one transaction, then LanceDB, for
 * the same reason as deleteRun: a crash in between leaves only rows without a step, which `reconcile` removes.
 */
export async function deleteImport(
  db: Db,
  name: string,
  lance: LanceRows,
  options: DeleteImportOptions = {},
): Promise<ImportDeletion> {
  const { contents, stepIds } = await retryWhenBusy(() =>
    db.$transaction(async (tx) => {
      await takeWriteLock(tx);
      const { contents, refusal, taskIds } = await inventory(tx, name);
      if (refusal) throw new RetentionError("CONFLICT", refusal);
      const stepIds = await collectStepIds(tx, { trajectory: { importName: name } });
      await tx.trajectory.deleteMany({ where: { importName: name } });
      let tasks = 0;
      for (const slice of chunks(taskIds))
        tasks += (await tx.task.deleteMany({ where: orphanTasks(name, slice) })).count;
      return { contents: { ...contents, steps: stepIds.length, tasks }, stepIds };
    }, DELETE_TRANSACTION),
  );
  await options.afterCommit?.(stepIds);
  return { ...contents, ...(await removeLanceRows(lance, stepIds)) };
}
