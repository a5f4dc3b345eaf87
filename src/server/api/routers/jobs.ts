import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_IMPORT_FORMAT, IMPORT_FORMATS, parseImportAs, toJsonl } from "@/core/trajectories/formats";
import { contentKey, rejectionMessage } from "@/core/trajectories/importFormat";
import { config } from "@/env";
import { CollectPayload, IndexPayload, TeacherPayload } from "../../queue/payloads";
import { cancel, enqueue } from "../../queue/queue";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

/** Uploads larger than this belong on the CLI (`npm run cli -- import FILE`). */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

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
   * Checks the file now (so a bad file is refused with its line numbers before anything is queued), saves it
   * under the data folder and enqueues the import; the worker does the writing. A file in another format is
   * converted here and saved as the project's JSONL, so the worker imports it by the same path.
   */
  importTrajectories: allowedTo({ data: ["import"] })
    .input(
      z.object({
        name: z.string().min(1).max(300),
        content: z.string().max(MAX_UPLOAD_BYTES),
        format: z.enum(IMPORT_FORMATS).default(DEFAULT_IMPORT_FORMAT),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const parsed = parseImportAs(input.content, input.format);
      if (parsed.errors.length > 0) {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: rejectionMessage(input.name, parsed.errors),
        });
      }
      const dir = path.resolve(config().dataDir, "imports");
      await fs.mkdir(dir, { recursive: true });
      const content = parsed.format === "dreamgym" ? input.content : toJsonl(parsed);
      const file = path.join(dir, `${contentKey(content)}.jsonl`);
      await fs.writeFile(file, content, "utf8");
      const job = await enqueue(ctx.db, "import", { path: file, name: input.name });
      return { jobId: job.id, trajectories: parsed.trajectories.length, format: parsed.format };
    }),

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

  cancel: allowedTo({ job: ["cancel"] })
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => cancel(ctx.db, input.id)),
});
