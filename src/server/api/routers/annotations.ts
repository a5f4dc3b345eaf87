import { z } from "zod";
import { AnnotationFilter, exportStatuses } from "@/shared/annotationFilter";
import { ReviewAction } from "@/shared/enums";
import { AnnotationError } from "../../annotations/errors";
import { releaseLock, takeLock } from "../../annotations/lock";
import { getAnnotation, listQueue, queueCounts } from "../../annotations/queue";
import { reviewAnnotation } from "../../annotations/review";
import { AnnotationId } from "../../annotations/schema";
import { countSftRecords } from "../../experience/exportSft";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

/** The server's refusals keep their meaning over the wire: NOT_FOUND, CONFLICT (a lock), BAD_REQUEST. */
function asTrpcError(error: unknown): never {
  if (error instanceof AnnotationError)
    throw new TRPCError({ code: error.code, message: error.message, cause: error });
  throw error;
}

const Lock = z.object({ id: AnnotationId });

/** The annotation queue of teacher reasoning traces: browse, lock, review, and size the export. */
export const annotationsRouter = createTRPCRouter({
  list: readProcedure.input(AnnotationFilter).query(({ ctx, input }) => listQueue(ctx.db, input)),

  counts: readProcedure
    .input(AnnotationFilter.pick({ domain: true, teacher: true }))
    .query(({ ctx, input }) => queueCounts(ctx.db, input)),

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
        correction: z.string().max(20_000, "a correction is at most 20,000 characters").optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      reviewAnnotation(ctx.db, {
        id: input.id,
        author: ctx.user.email,
        action: input.action,
        ...(input.correction !== undefined ? { correction: input.correction } : {}),
      }).catch(asTrpcError),
    ),

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
