import type { Annotation, AnnotationEvent, Prisma } from "@/generated/prisma/client";
import type { AnnotationStatus, ReviewAction } from "@/shared/enums";
import { type Db, retryWhenBusy } from "../db";
import {
  type CorrectionInput,
  currentPrediction,
  type EventDiff,
  editedPrediction,
  fieldChanges,
  modelPrediction,
  type Prediction,
  type ReviewSnapshot,
  type StoredCorrection,
  storedOf,
} from "./correction";
import { AnnotationError, notFound } from "./errors";
import { whyNotOurs } from "./lock";

export interface ReviewInput {
  id: string;
  author: string;
  action: ReviewAction;
  /** The corrected prediction; required by "edit", ignored otherwise. */
  correction?: CorrectionInput;
}

export interface ReviewResult {
  annotation: Annotation;
  event: AnnotationEvent;
}

/** The trace as it stands: the correction where there is one, else the teacher's own. */
export function currentText(a: Pick<Annotation, "teacherText" | "correction">): string {
  return a.correction ?? a.teacherText;
}

/** Where a review leaves an annotation: its status, its corrections and when it was reviewed. */
export interface Change {
  status: AnnotationStatus;
  stored: StoredCorrection;
  reviewedAt: Date | null;
}

type Tx = Prisma.TransactionClient;
export type AnnotationWithStep = Annotation & { step: { nextState: string; reward: number; done: boolean } };

const STEP_OUTCOME = { step: { select: { nextState: true, reward: true, done: true } } } as const;

function storedOfRow(row: Annotation): StoredCorrection {
  return {
    correction: row.correction,
    correctedNextState: row.correctedNextState,
    correctedReward: row.correctedReward,
    correctedDone: row.correctedDone,
  };
}

function changeOf(row: AnnotationWithStep, input: ReviewInput, now: Date): Change {
  const model = modelPrediction(row, row.step);
  switch (input.action) {
    case "accept":
      // Accepting means the model was right: corrections made earlier no longer apply.
      return { status: "accepted", stored: storedOf(model, model), reviewedAt: now };
    case "edit": {
      const next = editedPrediction(
        input.correction ?? {},
        currentPrediction(storedOfRow(row), model),
        model,
      );
      return { status: "edited", stored: storedOf(next, model), reviewedAt: now };
    }
    case "reject":
      return { status: "rejected", stored: storedOfRow(row), reviewedAt: now };
    case "reopen":
      if (row.status === "pending")
        throw new AnnotationError("BAD_REQUEST", "This trace is already pending review");
      return { status: "pending", stored: storedOfRow(row), reviewedAt: null };
  }
}

/** The author's own verdict once a change lands: what they said of the item, or none once it is pending again. */
function snapshotOf(change: Change, model: Prediction): ReviewSnapshot | null {
  if (change.status === "pending") return null;
  const edited = change.status === "edited" ? currentPrediction(change.stored, model) : null;
  return {
    verdict: change.status,
    reasoning: edited?.reasoning ?? null,
    nextState: edited?.nextState ?? null,
    reward: edited?.reward ?? null,
    done: edited?.done ?? null,
  };
}

async function authorsReview(tx: Tx, annotationId: string, author: string): Promise<ReviewSnapshot | null> {
  const review = await tx.annotationReview.findUnique({
    where: { annotationId_author: { annotationId, author } },
  });
  if (!review) return null;
  const { verdict, reasoning, nextState, reward, done } = review;
  return { verdict: verdict as ReviewSnapshot["verdict"], reasoning, nextState, reward, done };
}

/** Puts the author's verdict in place (or removes it): one row per annotator and item, read for agreement. */
export async function setAuthorsReview(
  tx: Tx,
  annotationId: string,
  author: string,
  snapshot: ReviewSnapshot | null,
): Promise<void> {
  if (!snapshot) {
    await tx.annotationReview.deleteMany({ where: { annotationId, author } });
    return;
  }
  await tx.annotationReview.upsert({
    where: { annotationId_author: { annotationId, author } },
    create: { annotationId, author, ...snapshot },
    update: snapshot,
  });
}

/**
 * Writes a change for an annotator who holds the item's lock: a compare-and-set on the lock and on the state that
 * was read, so a change never lands on an item someone else took over or changed in between; then the event with
 * its diff, and the author's own verdict.
 */
export async function applyChange(
  tx: Tx,
  row: AnnotationWithStep,
  author: string,
  change: Change,
  event: { action: string; now: Date; undoes?: string; reviewAfter: ReviewSnapshot | null },
): Promise<ReviewResult> {
  const { now } = event;
  const written = await tx.$executeRaw`
    UPDATE "Annotation"
    SET status = ${change.status}, correction = ${change.stored.correction}, author = ${author},
      "reviewedAt" = ${change.reviewedAt}, "updatedAt" = ${now}
    WHERE id = ${row.id} AND "lockedBy" = ${author} AND "lockExpiresAt" > ${now}
      AND status = ${row.status} AND correction IS NOT DISTINCT FROM ${row.correction}`;
  if (written !== 1) {
    throw (
      (await whyNotOurs(tx, row.id, author, now)) ??
      new AnnotationError("CONFLICT", "This trace changed while you reviewed it; reload it")
    );
  }
  // The row is ours from the compare-and-set on: the rest of the prediction follows in the same transaction.
  await tx.annotation.update({
    where: { id: row.id },
    data: {
      correctedNextState: change.stored.correctedNextState,
      correctedReward: change.stored.correctedReward,
      correctedDone: change.stored.correctedDone,
      updatedAt: now,
    },
  });
  const model = modelPrediction(row, row.step);
  const before = currentPrediction(storedOfRow(row), model);
  const after = currentPrediction(change.stored, model);
  const diff: EventDiff = {
    status: { before: row.status as AnnotationStatus, after: change.status },
    fields: fieldChanges(before, after),
    review: { before: await authorsReview(tx, row.id, author) },
    ...(event.undoes ? { undoes: event.undoes } : {}),
  };
  await setAuthorsReview(tx, row.id, author, event.reviewAfter);
  const created = await tx.annotationEvent.create({
    data: {
      annotationId: row.id,
      author,
      action: event.action,
      before: before.reasoning,
      after: change.status === "rejected" ? null : after.reasoning,
      diff: diff as unknown as Prisma.InputJsonValue,
      createdAt: now,
    },
  });
  const annotation = await tx.annotation.findUniqueOrThrow({ where: { id: row.id } });
  return { annotation, event: created };
}

export async function readForChange(tx: Tx, id: string): Promise<AnnotationWithStep> {
  const row = await tx.annotation.findUnique({ where: { id }, include: STEP_OUTCOME });
  if (!row) throw notFound(id);
  return row;
}

/**
 * Reviews a trace for an annotator who holds its lock: the annotation, its event with the diff of what changed,
 * and the annotator's own verdict are written in one transaction. A verdict ends the author's draft of the item.
 */
export async function reviewAnnotation(db: Db, input: ReviewInput): Promise<ReviewResult> {
  return retryWhenBusy(() =>
    db.$transaction(async (tx: Tx) => {
      const now = new Date();
      const row = await readForChange(tx, input.id);
      const change = changeOf(row, input, now);
      const result = await applyChange(tx, row, input.author, change, {
        action: input.action,
        now,
        reviewAfter: snapshotOf(change, modelPrediction(row, row.step)),
      });
      if (input.action !== "reopen")
        await tx.annotationDraft.deleteMany({ where: { annotationId: row.id, author: input.author } });
      return result;
    }),
  );
}
