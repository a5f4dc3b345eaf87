import type { Annotation, AnnotationEvent, Prisma } from "@/generated/prisma/client";
import type { AnnotationStatus, ReviewAction } from "@/shared/enums";
import { type Db, retryWhenBusy } from "../db";
import { AnnotationError, notFound } from "./errors";
import { whyNotOurs } from "./lock";

export interface ReviewInput {
  id: string;
  author: string;
  action: ReviewAction;
  /** The corrected reasoning; required by "edit", ignored otherwise. */
  correction?: string;
}

export interface ReviewResult {
  annotation: Annotation;
  event: AnnotationEvent;
}

/** The trace as it stands: the correction where there is one, else the teacher's own. */
export function currentText(a: Pick<Annotation, "teacherText" | "correction">): string {
  return a.correction ?? a.teacherText;
}

interface Change {
  status: AnnotationStatus;
  correction: string | null;
  after: string | null;
  reviewedAt: Date | null;
}

function changeOf(row: Annotation, input: ReviewInput, now: Date): Change {
  switch (input.action) {
    case "accept":
      // Accepting means the teacher was right: a correction made earlier no longer applies.
      return { status: "accepted", correction: null, after: row.teacherText, reviewedAt: now };
    case "edit": {
      const correction = input.correction?.trim() ?? "";
      if (!correction)
        throw new AnnotationError(
          "BAD_REQUEST",
          "The correction is empty: write the corrected reasoning, or reject the trace",
        );
      if (correction === row.teacherText.trim())
        throw new AnnotationError(
          "BAD_REQUEST",
          "The correction is the same as the teacher's trace: accept it instead",
        );
      return { status: "edited", correction, after: correction, reviewedAt: now };
    }
    case "reject":
      return { status: "rejected", correction: row.correction, after: null, reviewedAt: now };
    case "reopen":
      if (row.status === "pending")
        throw new AnnotationError("BAD_REQUEST", "This trace is already pending review");
      return { status: "pending", correction: row.correction, after: currentText(row), reviewedAt: null };
  }
}

/**
 * Reviews a trace for an annotator who holds its lock: the annotation and its event are written in one
 * transaction, and the write is a compare-and-set on the lock and on the state that was read, so a review never
 * lands on a trace someone else took over or changed in between.
 */
export async function reviewAnnotation(db: Db, input: ReviewInput): Promise<ReviewResult> {
  return retryWhenBusy(() => reviewOnce(db, input));
}

function reviewOnce(db: Db, input: ReviewInput): Promise<ReviewResult> {
  return db.$transaction(async (tx: Prisma.TransactionClient) => {
    const now = new Date();
    const row = await tx.annotation.findUnique({ where: { id: input.id } });
    if (!row) throw notFound(input.id);
    const change = changeOf(row, input, now);
    const written = await tx.$executeRaw`
      UPDATE "Annotation"
      SET status = ${change.status}, correction = ${change.correction}, author = ${input.author},
        "reviewedAt" = ${change.reviewedAt}, "updatedAt" = ${now}
      WHERE id = ${row.id} AND "lockedBy" = ${input.author} AND "lockExpiresAt" > ${now}
        AND status = ${row.status} AND correction IS NOT DISTINCT FROM ${row.correction}`;
    if (written !== 1) {
      throw (
        (await whyNotOurs(tx, row.id, input.author, now)) ??
        new AnnotationError("CONFLICT", "This trace changed while you reviewed it; reload it")
      );
    }
    const event = await tx.annotationEvent.create({
      data: {
        annotationId: row.id,
        author: input.author,
        action: input.action,
        before: currentText(row),
        after: change.after,
        createdAt: now,
      },
    });
    const annotation = await tx.annotation.findUniqueOrThrow({ where: { id: row.id } });
    return { annotation, event };
  });
}
