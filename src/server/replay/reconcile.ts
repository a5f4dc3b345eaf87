import type { Db } from "../db";
import type { LanceReplayBuffer } from "./lanceReplayBuffer";

export interface ReconcileResult {
  /** Rows whose step no longer exists in Prisma (a run or trajectory was deleted), removed from LanceDB. */
  removed: number;
  /** Steps marked as indexed whose row is missing from LanceDB, marked pending again. */
  requeued: number;
}

const PAGE = 5_000;

/**
 * A full comparison of the two stores' ids, for what the write path alone cannot see: steps deleted in Prisma
 * (their rows must not be retrieved any more) and rows lost from LanceDB (their steps must be indexed again).
 * Linear in the number of steps: run it from the worker or the CLI, not on every search.
 */
export async function reconcile(db: Db, store: LanceReplayBuffer): Promise<ReconcileResult> {
  const inLance = new Set<string>();
  for await (const ids of store.ids()) for (const id of ids) inLance.add(id);

  const missing: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await db.step.findMany({
      ...(cursor !== undefined ? { where: { id: { gt: cursor } } } : {}),
      orderBy: { id: "asc" },
      take: PAGE,
      select: { id: true, indexedAt: true },
    });
    if (page.length === 0) break;
    for (const step of page) {
      // What is left in inLance afterwards has no step.
      if (!inLance.delete(step.id) && step.indexedAt !== null) missing.push(step.id);
    }
    cursor = page[page.length - 1]!.id;
  }

  const orphans = [...inLance];
  if (orphans.length) await store.deleteIds(orphans);
  for (let i = 0; i < missing.length; i += PAGE) {
    await db.step.updateMany({
      where: { id: { in: missing.slice(i, i + PAGE) } },
      data: { indexedAt: null },
    });
  }
  return { removed: orphans.length, requeued: missing.length };
}
