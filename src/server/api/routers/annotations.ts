import { z } from "zod";
import { AnnotationFilter, exportStatuses } from "@/shared/annotationFilter";
import { ReviewAction } from "@/shared/enums";
import { CorrectionInput } from "../../annotations/correction";
import { CorrectionDraft, discardDraft, getDraft, saveDraft } from "../../annotations/drafts";
import { releaseLock, takeLock } from "../../annotations/lock";
import { getAnnotation, listQueue, queueCounts } from "../../annotations/queue";
import { reviewAnnotation } from "../../annotations/review";
import { AnnotationId } from "../../annotations/schema";
import { undoLastReview } from "../../annotations/undo";
import { countSftRecords } from "../../experience/exportSft";
import { allowedTo, createTRPCRouter, readProcedure } from "../trpc";
import { annotationTeamProcedures, asTrpcError, Lock } from "./annotationTeam";

/** The annotation queue of teacher reasoning traces: browse, lock, review, and size the export. */
export const annotationsRouter = createTRPCRouter({
  /** The queue; the signed-in person's assigned items not yet reviewed by them come first. */
  list: readProcedure
    .input(AnnotationFilter)
    .query(({ ctx, input }) => listQueue(ctx.db, input, ctx.user.email)),

  counts: readProcedure
    .input(AnnotationFilter.pick({ domain: true, teacher: true }))
    .query(({ ctx, input }) => queueCounts(ctx.db, input, ctx.user.email)),

  get: readProcedure
    .input(z.object({ id: AnnotationId }))
    .query(({ ctx, input }) => getAnnotation(ctx.db, input.id).catch(asTrpcError)),

  /** Takes the trace for review, or renews the lock the caller already holds. Reviewers are who signed in. */
  lock: allowedTo({ annotation: ["review"] })
    .input(Lock)
    .mutation(({ ctx, input }) => takeLock(ctx.db, input.id, ctx.user.email).catch(asTrpcError)),

  release: allowedTo({ annotation: ["review"] })
    .input(Lock)
    .mutation(async ({ ctx, input }) => ({ released: await releaseLock(ctx.db, input.id, ctx.user.email) })),

  review: allowedTo({ annotation: ["review"] })
    .input(
      Lock.extend({
        action: ReviewAction,
        /** The corrected prediction, or (as before) the corrected reasoning alone. */
        correction: z
          .union([z.string().max(20_000, "a correction is at most 20,000 characters"), CorrectionInput])
          .optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      reviewAnnotation(ctx.db, {
        id: input.id,
        author: ctx.user.email,
        action: input.action,
        ...(input.correction !== undefined
          ? {
              correction:
                typeof input.correction === "string" ? { reasoning: input.correction } : input.correction,
            }
          : {}),
      }).catch(asTrpcError),
    ),

  /** Undoes the caller's last accept, edit or reject, wherever it was; the answer names the item. */
  undo: allowedTo({ annotation: ["review"] }).mutation(({ ctx }) =>
    undoLastReview(ctx.db, ctx.user.email).catch(asTrpcError),
  ),

  /** The caller's autosaved draft of an item, or null. */
  draft: readProcedure.input(Lock).query(({ ctx, input }) => getDraft(ctx.db, input.id, ctx.user.email)),

  saveDraft: allowedTo({ annotation: ["review"] })
    .input(Lock.extend({ draft: CorrectionDraft }))
    .mutation(({ ctx, input }) =>
      saveDraft(ctx.db, input.id, ctx.user.email, input.draft).catch(asTrpcError),
    ),

  discardDraft: allowedTo({ annotation: ["review"] })
    .input(Lock)
    .mutation(async ({ ctx, input }) => ({
      discarded: await discardDraft(ctx.db, input.id, ctx.user.email),
    })),

  ...annotationTeamProcedures,

  /** How many records the reviewed SFT export holds under these filters (what the download will contain). */
  exportCount: readProcedure.input(AnnotationFilter).query(async ({ ctx, input }) => ({
    statuses: exportStatuses(input.status),
    records: await countSftRecords(ctx.db, {
      statuses: exportStatuses(input.status),
      ...(input.domain ? { domain: input.domain } : {}),
      ...(input.teacher ? { teacher: input.teacher } : {}),
    }),
  })),
});
