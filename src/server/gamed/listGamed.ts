import { Prisma } from "@/generated/prisma/client";
import type { GamedFilter } from "@/shared/gamedFilter";
import type { Db } from "../db";
import { type EpisodeFigures, type FiguresRow, figuresOf, figuresQuery, filterWhere } from "./episodeFigures";
import { firstPartings, type Parting } from "./parting";

export interface GamedEpisode extends EpisodeFigures {
  runName: string | null;
  /** The first step where the prediction departs from the real answer; null if it never does. */
  parting: Parting | null;
}

export interface GamedPage {
  items: GamedEpisode[];
  /** Ranked episodes under the filter (those with a real answer). */
  total: number;
  offset: number;
  limit: number;
}

/**
 * Synthetic episodes ranked by excess (synthetic return − real return, see episodeFigures), largest first; ties
 * earliest iteration first (where the policy began to game the model), then by task and rollout, so that the order
 * is the same on every copy of a run and pages never overlap. SQLite aggregates and ranks; only the page's episodes are read further (their
 * first parting step, their run's name). The count comes with the page (a window over the groups), and again on
 * its own only when the page is past the end.
 */
export async function listGamed(
  db: Db,
  filter: GamedFilter,
  page: { offset: number; limit: number },
): Promise<GamedPage> {
  const where = filterWhere(filter);
  const rows = await db.$queryRaw<(FiguresRow & { total: number | bigint })[]>(
    Prisma.sql`SELECT ranked.*, COUNT(*) OVER () AS total FROM (${figuresQuery(where, Prisma.empty)}) ranked
      ORDER BY ROUND(CAST(ranked."syntheticReturn" - ranked."realReturn" AS NUMERIC), 9) DESC, ranked.iteration, ranked."taskId",
        ranked."group", ranked.id
      LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  const total = rows[0] ? Number(rows[0].total) : page.offset > 0 ? await countRanked(db, where) : 0;
  const figures = rows.map(figuresOf);
  const runIds = [...new Set(figures.map((f) => f.runId).filter((id): id is string => id !== null))];
  const [partings, runs] = await Promise.all([
    firstPartings(
      db,
      figures.map((f) => f.id),
    ),
    db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, name: true } }),
  ]);
  const runName = new Map(runs.map((r) => [r.id, r.name]));
  return {
    items: figures.map((f) => ({
      ...f,
      runName: f.runId ? (runName.get(f.runId) ?? null) : null,
      parting: partings.get(f.id) ?? null,
    })),
    total,
    offset: page.offset,
    limit: page.limit,
  };
}

async function countRanked(db: Db, where: Prisma.Sql): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>(
    Prisma.sql`SELECT COUNT(*) AS n FROM (${figuresQuery(where, Prisma.empty)}) ranked`,
  );
  return Number(row?.n ?? 0);
}
