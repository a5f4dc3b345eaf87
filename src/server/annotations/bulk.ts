import type { Db } from "../db";
import { AnnotationError } from "./errors";
import { releaseLock, takeLock } from "./lock";
import { reviewAnnotation } from "./review";

export interface BulkResult {
  /** Items reviewed. */
  done: string[];
  /** Items left as they were, each with why (locked by someone else, gone). */
  skipped: { id: string; reason: string }[];
}

/**
 * Accepts or rejects several items at once, each as its own review (its lock, its event, the author's verdict).
 * An item someone else holds is skipped and said, not waited for; a lock the author did not hold before is let go
 * again, so the bulk action leaves nothing locked behind it.
 */
export async function bulkReview(
  db: Db,
  input: { ids: string[]; author: string; action: "accept" | "reject" },
): Promise<BulkResult> {
  const result: BulkResult = { done: [], skipped: [] };
  const now = new Date();
  const held = await db.annotation.findMany({
    where: { id: { in: input.ids }, lockedBy: input.author, lockExpiresAt: { gt: now } },
    select: { id: true },
  });
  const heldBefore = new Set(held.map((h) => h.id));
  for (const id of new Set(input.ids)) {
    try {
      await takeLock(db, id, input.author);
      await reviewAnnotation(db, { id, author: input.author, action: input.action });
      result.done.push(id);
    } catch (error) {
      if (!(error instanceof AnnotationError)) throw error;
      result.skipped.push({ id, reason: error.message });
    } finally {
      if (!heldBefore.has(id)) await releaseLock(db, id, input.author);
    }
  }
  return result;
}
