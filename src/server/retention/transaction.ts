import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";
import { lockForWriting } from "../sql/dialect";

export type Tx = Prisma.TransactionClient;
/** What the counting queries need: the client itself (a preview) or a transaction (the deletion). */
export type Reader = Db | Tx;

/** Big deletions cascade through many steps; SQLite does it in seconds, but not in Prisma's default 5 s. */
export const DELETE_TRANSACTION = { timeout: 600_000, maxWait: 30_000 } as const;

/**
 * Takes the write lock as a deletion's first statement. Prisma's transactions are deferred, so without it the
 * first read would pin a snapshot, another process (the worker claiming the run's job, an import committing) could
 * commit meanwhile, and this transaction would then either miss that or fail busy at its first write. On SQLite a
 * no-op UPDATE (it matches no row) takes the database's lock all the same, the trick of the job fence
 * (server/queue/fence.ts); on PostgreSQL table locks do it (sql/dialect.ts). Everything the deletion reads next
 * stays true until it commits.
 */
export async function takeWriteLock(tx: Tx): Promise<void> {
  await lockForWriting(tx);
}

const PAGE = 5_000;

/**
 * The ids of the steps that a deletion is about to remove, read in pages by id (a run may hold millions of steps;
 * one query for all of them would build one huge result). Called inside the deleting transaction, after the write
 * lock, so the list is exactly what the cascade removes.
 */
export async function collectStepIds(
  tx: Tx,
  where: Prisma.StepWhereInput,
  pageSize = PAGE,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await tx.step.findMany({
      where: cursor === undefined ? where : { AND: [where, { id: { gt: cursor } }] },
      orderBy: { id: "asc" },
      take: pageSize,
      select: { id: true },
    });
    for (const step of page) ids.push(step.id);
    if (page.length < pageSize) return ids;
    cursor = page[page.length - 1]!.id;
  }
}

/** `id IN (...)` lists in slices, under SQLite's limit on bound parameters. */
export function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
