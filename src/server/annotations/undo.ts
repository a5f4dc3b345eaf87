import type { AnnotationEvent, Prisma } from "@/generated/prisma/client";
import type { AnnotationStatus } from "@/shared/enums";
import { type Db, retryWhenBusy } from "../db";
import {
  CORRECTION_FIELDS,
  currentPrediction,
  modelPrediction,
  type Prediction,
  readDiff,
  storedOf,
} from "./correction";
import { AnnotationError } from "./errors";
import { takeLock } from "./lock";
import { applyChange, type ReviewResult, readForChange } from "./review";

/** The review actions an undo reverses; a reopen is itself the way back from a verdict. */
export const UNDOABLE_ACTIONS = ["accept", "edit", "reject"] as const;
/** How far back an annotator's own reviews are looked through for the last one still standing. */
const LOOK_BACK = 200;

/** The author's last accept, edit or reject that no undo has reversed yet; null when there is none. */
export async function lastUndoable(db: Db, author: string): Promise<AnnotationEvent | null> {
  const events = await db.annotationEvent.findMany({
    where: { author, action: { in: [...UNDOABLE_ACTIONS, "undo"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LOOK_BACK,
  });
  const undone = new Set(events.map((e) => readDiff(e.diff)?.undoes).filter(Boolean));
  return events.find((e) => e.action !== "undo" && !undone.has(e.id)) ?? null;
}

/**
 * Undoes the author's last accept, edit or reject, wherever it was: the item goes back to the status and
 * prediction it had before, and the author's own verdict with it. The item must still be as that review left it;
 * if anyone changed it since, nothing is undone and the refusal says so. The undo takes the item's lock (it is
 * usually no longer the one on screen) and is itself an event, whose diff names the review it reversed.
 */
export async function undoLastReview(db: Db, author: string): Promise<ReviewResult & { undone: string }> {
  const last = await lastUndoable(db, author);
  if (!last)
    throw new AnnotationError(
      "BAD_REQUEST",
      "Nothing to undo: u undoes your last accept, edit or reject, and you have none left to undo",
    );
  const diff = readDiff(last.diff);
  if (!diff)
    throw new AnnotationError(
      "BAD_REQUEST",
      "Your last review was recorded without its diff: reopen it instead",
    );
  await takeLock(db, last.annotationId, author);
  const result = await retryWhenBusy(() =>
    db.$transaction(async (tx: Prisma.TransactionClient) => {
      const now = new Date();
      const row = await readForChange(tx, last.annotationId);
      const model = modelPrediction(row, row.step);
      const current = currentPrediction(row, model);
      const changedSince =
        row.status !== diff.status.after ||
        CORRECTION_FIELDS.some((f) => {
          const change = diff.fields[f];
          return change !== undefined && current[f] !== change.after;
        });
      if (changedSince)
        throw new AnnotationError(
          "CONFLICT",
          `This trace changed after your ${last.action} (it is ${row.status} now${row.author && row.author !== author ? `, by ${row.author}` : ""}): nothing undone`,
        );
      const restored: Prediction = { ...current };
      for (const field of CORRECTION_FIELDS) {
        const change = diff.fields[field];
        if (change) (restored as unknown as Record<string, unknown>)[field] = change.before;
      }
      const status: AnnotationStatus = diff.status.before;
      return applyChange(
        tx,
        row,
        author,
        { status, stored: storedOf(restored, model), reviewedAt: status === "pending" ? null : now },
        { action: "undo", now, undoes: last.id, reviewAfter: diff.review?.before ?? null },
      );
    }),
  );
  return { ...result, undone: last.action };
}
