import type { Db } from "../db";
import { withLock } from "../lock";
import type { LanceReplayBuffer } from "./lanceReplayBuffer";
import { REPLAY_WRITE_LOCK } from "./syncSteps";

export interface ReconcileResult {
  /** Rows whose step no longer exists in Prisma (a run or trajectory was deleted), removed from LanceDB. */
  removed: number;
  /** Steps marked as indexed whose row is missing from LanceDB, marked pending again. */
  requeued: number;
  /** Steps with more than one row (two writers at once, before the write lock): their rows removed, re-queued. */
  duplicated: number;
}

const PAGE = 5_000;

/**
 * A full comparison of the two stores' ids, for what the write path alone cannot see: steps deleted in Prisma
 * (their rows must not be retrieved any more), rows lost from LanceDB (their steps must be indexed again) and
 * steps with two rows (they would be retrieved twice, crowding out other demonstrations).
 * Linear in the number of steps: run it from the worker or the CLI, not on every search.
 */
export async function reconcile(db: Db, store: LanceReplayBuffer): Promise<ReconcileResult> {
  // Under the write lock: an indexer between its LanceDB write and its mark would look like drift.
  return withLock(db, REPLAY_WRITE_LOCK, () => reconcileLocked(db, store));
}

async function reconcileLocked(db: Db, store: LanceReplayBuffer): Promise<ReconcileResult> {
  const inLance = new Set<string>();
  const duplicated = new Set<string>();
  for await (const ids of store.ids())
    for (const id of ids) {
      if (inLance.has(id)) duplicated.add(id);
      inLance.add(id);
    }

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
      const present = inLance.delete(step.id);
      if ((!present && step.indexedAt !== null) || duplicated.has(step.id)) missing.push(step.id);
    }
    cursor = page[page.length - 1]!.id;
  }

  const orphans = [...inLance];
  if (orphans.length) await store.deleteIds(orphans);
  // Every row of a duplicated step goes; its step, marked pending below, is written once by the next indexing.
  const twice = [...duplicated].filter((id) => !inLance.has(id));
  if (twice.length) await store.deleteIds(twice);
  for (let i = 0; i < missing.length; i += PAGE) {
    await db.step.updateMany({
      where: { id: { in: missing.slice(i, i + PAGE) } },
      data: { indexedAt: null },
    });
  }
  return { removed: orphans.length, requeued: missing.length - twice.length, duplicated: twice.length };
}
