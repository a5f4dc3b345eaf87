import { z } from "zod";
import { CollectPayload, IndexPayload, TeacherPayload } from "../../queue/payloads";
import { cancel, enqueue } from "../../queue/queue";
import { runJobStatus } from "../../queue/runJob";
import {
  queueUpload,
  UPLOAD_LIMIT_BYTES,
  UploadFields,
  UploadRejected,
} from "../../trajectories/queueUpload";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

export const jobsRouter = createTRPCRouter({
  list: readProcedure
    .input(
      z
        .object({ status: z.string().optional(), limit: z.number().int().min(1).max(200).default(50) })
        .prefault({}),
    )
    .query(({ ctx, input }) =>
      ctx.db.job.findMany({
        where: input.status ? { status: input.status } : {},
        orderBy: { createdAt: "desc" },
        take: input.limit,
      }),
    ),

  get: readProcedure.input(z.object({ id: z.string() })).query(async ({ ctx, input }) => {
    const job = await ctx.db.job.findUnique({ where: { id: input.id } });
    if (!job) throw new TRPCError({ code: "NOT_FOUND", message: `No job with id ${input.id}` });
    return job;
  }),

  /**
   * An upload as a tRPC call, for scripts and tests: the page streams files to /api/imports instead, since a tRPC
   * body is read whole and limited (src/app/api/trpc/[trpc]/route.ts).
   */
  importTrajectories: allowedTo({ data: ["import"] })
    .input(UploadFields.extend({ content: z.string().max(UPLOAD_LIMIT_BYTES) }))
    .mutation(({ ctx, input }) =>
      queueUpload(ctx.db, input).catch((error) => {
        if (error instanceof UploadRejected)
          throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
        throw error;
      }),
    ),

  collect: allowedTo({ data: ["collect"] })
    .input(CollectPayload)
    .mutation(async ({ ctx, input }) => {
      const job = await enqueue(ctx.db, "collect", input);
      return { jobId: job.id };
    }),

  /** Bring the replay buffer up to date, or rebuild it (after changing the embedder). */
  index: allowedTo({ data: ["index"] })
    .input(IndexPayload)
    .mutation(async ({ ctx, input }) => {
      const job = await enqueue(ctx.db, "index", input);
      return { jobId: job.id };
    }),

  /** Teacher reasoning traces for offline steps, into the annotators' queue. */
  teacher: allowedTo({ data: ["teacher"] })
    .input(TeacherPayload)
    .mutation(async ({ ctx, input }) => {
      const job = await enqueue(ctx.db, "teacher", input);
      return { jobId: job.id };
    }),

  /** What the job of a starting run is doing (queued behind others, setting up), or null once none is open. */
  forRun: readProcedure
    .input(z.object({ runId: z.string().min(1) }))
    .query(({ ctx, input }) => runJobStatus(ctx.db, input.runId)),

  cancel: allowedTo({ job: ["cancel"] })
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => cancel(ctx.db, input.id)),
});
