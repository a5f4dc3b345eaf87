import { Prisma } from "@/generated/prisma/client";
import { encodeCells, type PackedCells } from "@/shared/cellCodec";
import type { Db } from "../db";
import { groupConcat, queryUnsafe } from "../sql/dialect";

/** One row of the heatmap: a task of the run's batches, with what the curriculum needs to say about it. */
export interface HeatmapTask {
  id: string;
  instruction: string;
  origin: string;
  generation: number;
  parentId: string | null;
  /** Mean of the task's reward variance over the iterations it was in the batch: the sort key. */
  meanVariance: number;
}

/**
 * The reward variance of a run's tasks over its iterations in a compact form: task rows × iteration columns as
 * one flat row-major array, packed (cellCodec), so 500 tasks × 100 iterations is one string of 50,000 cells
 * rather than 50,000 objects. The other
 * statistics of a cell (mean reward, success, rollouts) come per task from `taskStats`, when a tooltip needs them.
 */
export interface Heatmap {
  runId: string;
  iterations: number[];
  tasks: HeatmapTask[];
  /** Row-major variances (decodeCells: -1 where the task was not in that iteration's batch). */
  variance: PackedCells;
  maxVariance: number;
}

export interface TaskIterationStat {
  iteration: number;
  count: number;
  meanReward: number;
  variance: number;
  successRate: number;
}

interface TaskCells {
  taskId: string;
  meanVariance: number;
  /** "iteration:variance,iteration:variance,…" */
  cells: string;
}

interface TaskRow {
  id: string;
  instruction: string;
  origin: string;
  generation: number | bigint;
  parentId: string | null;
}

/** Four decimals are more than a colour or a tooltip shows, and keep the payload small. */
const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The reward-variance heatmap of a run, tasks sorted by mean variance (highest first: the curriculum's picks). */
export async function runHeatmap(db: Db, runId: string): Promise<Heatmap> {
  // One row per task with its cells packed by SQLite: reading 50,000 rows through the driver costs ten times more.
  const cells = groupConcat(
    db,
    Prisma.sql`CAST("iteration" AS TEXT) || ':' || CAST("variance" AS TEXT)`,
    ",",
  );
  const packed = await db.$queryRaw<TaskCells[]>`
    SELECT "taskId", AVG("variance") AS "meanVariance", ${cells} AS "cells"
      FROM "TaskStat" WHERE "runId" = ${runId} GROUP BY "taskId"`;
  const parsed = packed.map((p) => ({
    taskId: p.taskId,
    meanVariance: round(Number(p.meanVariance)),
    cells: p.cells.split(",").map((cell) => {
      const colon = cell.indexOf(":");
      return [Number(cell.slice(0, colon)), Number(cell.slice(colon + 1))] as const;
    }),
  }));
  const iterationSet = new Set<number>();
  for (const p of parsed) for (const [it] of p.cells) iterationSet.add(it);
  const iterations = [...iterationSet].sort((a, b) => a - b);
  const column = new Map(iterations.map((it, i) => [it, i]));

  const taskRows = await tasksById(
    db,
    parsed.map((p) => p.taskId),
  );
  parsed.sort((a, b) => b.meanVariance - a.meanVariance || a.taskId.localeCompare(b.taskId));
  const tasks: HeatmapTask[] = parsed.map(({ taskId, meanVariance }) => {
    const t = taskRows.get(taskId);
    return {
      id: taskId,
      instruction: t?.instruction ?? "",
      origin: t?.origin ?? "seed",
      generation: Number(t?.generation ?? 0),
      parentId: t?.parentId ?? null,
      meanVariance,
    };
  });

  const cols = iterations.length;
  const variance = new Float64Array(tasks.length * cols).fill(-1);
  let maxVariance = 0;
  parsed.forEach((p, row) => {
    for (const [it, v] of p.cells) {
      variance[row * cols + (column.get(it) ?? 0)] = v;
      if (v > maxVariance) maxVariance = v;
    }
  });
  return { runId, iterations, tasks, variance: encodeCells(variance), maxVariance: round(maxVariance) };
}

/** Every iteration's statistics of one task in a run: what the heatmap's tooltip shows for a row. */
export async function taskIterationStats(
  db: Db,
  runId: string,
  taskId: string,
): Promise<TaskIterationStat[]> {
  return db.taskStat.findMany({
    where: { runId, taskId },
    orderBy: { iteration: "asc" },
    select: { iteration: true, count: true, meanReward: true, variance: true, successRate: true },
  });
}

const IN_CHUNK = 500;

async function tasksById(db: Db, ids: string[]): Promise<Map<string, TaskRow>> {
  const out = new Map<string, TaskRow>();
  for (let start = 0; start < ids.length; start += IN_CHUNK) {
    const chunk = ids.slice(start, start + IN_CHUNK);
    const rows = await queryUnsafe<TaskRow[]>(
      db,
      `SELECT "id", "instruction", "origin", "generation", "parentId" FROM "Task"
        WHERE "id" IN (${chunk.map(() => "?").join(", ")})`,
      ...chunk,
    );
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}
