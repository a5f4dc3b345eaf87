import { z } from "zod";
import { AnnotationFilter } from "@/shared/annotationFilter";
import { agreementOf } from "../../annotations/agreement";
import {
  AssignNextInput,
  assignNext,
  listAnnotators,
  progressOf,
  reassign,
} from "../../annotations/assignment";
import { bulkReview } from "../../annotations/bulk";
import { AnnotationError } from "../../annotations/errors";
import { GuidelinesText, getGuidelines, setGuidelines } from "../../annotations/guidelines";
import { AnnotationId } from "../../annotations/schema";
import { logAdminAction } from "../../audit/adminLog";
import { allowedTo, readProcedure, TRPCError } from "../trpc";

/** The server's refusals keep their meaning over the wire: NOT_FOUND, CONFLICT (a lock), BAD_REQUEST. */
export function asTrpcError(error: unknown): never {
  if (error instanceof AnnotationError)
    throw new TRPCError({ code: error.code, message: error.message, cause: error });
  throw error;
}

export const Lock = z.object({ id: AnnotationId });

const Ids = z.array(AnnotationId).min(1, "select at least one item").max(500, "at most 500 items at once");

/**
 * The annotation work as a team does it: who reviews what (assignment), how far each annotator is and how well
 * they agree, the guidelines they follow, and actions on several items at once. Part of the annotations router.
 */
export const annotationTeamProcedures = {
  /** The people who may review, to assign work to. */
  annotators: readProcedure.query(({ ctx }) => listAnnotators(ctx.db)),

  /** Per-annotator progress, and agreement on the items two or more of them reviewed. */
  stats: readProcedure.query(async ({ ctx }) => {
    const [progress, verdicts] = await Promise.all([
      progressOf(ctx.db),
      ctx.db.annotationReview.findMany({ select: { annotationId: true, author: true, verdict: true } }),
    ]);
    return { progress, agreement: agreementOf(verdicts) };
  }),

  /** The next N pending, unassigned items to one annotator, a share of them also to a second. */
  assignNext: allowedTo({ annotation: ["assign"] })
    .input(
      z.object({ assign: AssignNextInput, filter: AnnotationFilter.pick({ domain: true, teacher: true }) }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await assignNext(ctx.db, input.assign, input.filter).catch(asTrpcError);
      await logAdminAction(ctx.db, {
        actor: ctx.user.id,
        action: "annotations.assign",
        target: input.assign.annotator,
        detail: {
          assigned: result.assigned,
          overlapping: result.overlapping,
          ...(input.assign.overlap ? { overlapWith: input.assign.overlap.with } : {}),
        },
      });
      return result;
    }),

  /** The selected items to these annotators, in place of whoever had them. */
  reassign: allowedTo({ annotation: ["assign"] })
    .input(z.object({ ids: Ids, annotators: z.array(z.string().trim().min(1).max(320)).max(2) }))
    .mutation(async ({ ctx, input }) => {
      const result = await reassign(ctx.db, input.ids, input.annotators).catch(asTrpcError);
      await logAdminAction(ctx.db, {
        actor: ctx.user.id,
        action: "annotations.reassign",
        target: input.annotators.join(",") || "nobody",
        detail: { items: result.updated },
      });
      return result;
    }),

  /** Accepts or rejects the selected items, each as its own review; items someone else holds are skipped. */
  bulkReview: allowedTo({ annotation: ["review"] })
    .input(z.object({ ids: Ids, action: z.enum(["accept", "reject"]) }))
    .mutation(({ ctx, input }) =>
      bulkReview(ctx.db, { ids: input.ids, author: ctx.user.email, action: input.action }),
    ),

  guidelines: readProcedure.query(({ ctx }) => getGuidelines(ctx.db)),

  setGuidelines: allowedTo({ annotation: ["guide"] })
    .input(z.object({ text: GuidelinesText }))
    .mutation(({ ctx, input }) => setGuidelines(ctx.db, ctx.user, input.text)),
};
