import type { Db } from "../db";

/**
 * Steps per statement when every step goes back to pending. One UPDATE of all of them held SQLite's write lock
 * for 8 to 10 s at 255K steps, so a database twice that size would make every other writer (a job's heartbeat,
 * the queue) give up at its 15 s busy timeout; a batch of 2,000 held it for 0.3 s (0.9 s at most).
 */
const BATCH = 2_000;

/**
 * Marks every indexed step pending again (its row is no longer in LanceDB), one short write per batch of ids,
 * walking the primary key so that each batch costs the same however many are done. Returns how many it marked.
 */
export async function markAllStepsPending(db: Db, batchSize = BATCH): Promise<number> {
  let marked = 0;
  let cursor = "";
  for (;;) {
    const page = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Step" WHERE id > ${cursor} ORDER BY id LIMIT ${batchSize}`;
    const last = page[page.length - 1]?.id;
    if (last === undefined) return marked;
    marked += await db.$executeRaw`
      UPDATE "Step" SET "indexedAt" = NULL WHERE id > ${cursor} AND id <= ${last} AND "indexedAt" IS NOT NULL`;
    cursor = last;
  }
}
