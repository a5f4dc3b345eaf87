import type { Db } from "../db";
import { dialectOf } from "../sql/dialect";
import { EXPLORER_ORDER, type ExplorerFilter, explorerWhere } from "./explorerFilter";

export interface AdjacentEpisodes {
  /** 1-based position of the episode in the filtered list; null when the filter excludes it. */
  position: number | null;
  total: number;
  previousId: string | null;
  nextId: string | null;
}

/**
 * The episodes before and after one episode in the explorer's filtered list, found by keyset (no offsets), so
 * stepping through a list of thousands costs the same at its end as at its start.
 */
export async function adjacentEpisodes(
  db: Db,
  id: string,
  filter: ExplorerFilter,
): Promise<AdjacentEpisodes | null> {
  const self = await db.trajectory.findUnique({ where: { id }, select: { id: true, createdAt: true } });
  if (!self) return null;
  const where = explorerWhere(filter, dialectOf(db));
  const before = {
    OR: [{ createdAt: { gt: self.createdAt } }, { createdAt: self.createdAt, id: { lt: self.id } }],
  };
  const after = {
    OR: [{ createdAt: { lt: self.createdAt } }, { createdAt: self.createdAt, id: { gt: self.id } }],
  };
  const [inList, total, ahead, previous, next] = await Promise.all([
    db.trajectory.count({ where: { AND: [where, { id: self.id }] } }),
    db.trajectory.count({ where }),
    db.trajectory.count({ where: { AND: [where, before] } }),
    db.trajectory.findFirst({
      where: { AND: [where, before] },
      orderBy: [{ createdAt: "asc" }, { id: "desc" }],
      select: { id: true },
    }),
    db.trajectory.findFirst({
      where: { AND: [where, after] },
      orderBy: EXPLORER_ORDER,
      select: { id: true },
    }),
  ]);
  return {
    position: inList > 0 ? ahead + 1 : null,
    total,
    previousId: previous?.id ?? null,
    nextId: next?.id ?? null,
  };
}
