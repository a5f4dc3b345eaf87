import { z } from "zod";
import { FlagCategory } from "@/shared/enums";
import { FlaggedFilter } from "@/shared/flaggedFilter";
import { storedRunFidelity } from "../../regression/storedRunFidelity";
import { episodeDemonstrations } from "../../steps/demonstrations";
import { FlagRefused, flagStep, listFlagged, unflagStep } from "../../steps/flags";
import { runFidelity } from "../../steps/runFidelity";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const Id = z.string().min(1).max(100);

const notFound = (what: string, id: string) =>
  new TRPCError({ code: "NOT_FOUND", message: `No ${what} with id ${id}` });

export const stepsRouter = createTRPCRouter({
  /** Where a step lives, so that a step id (from a demonstration or a link) can be opened in its episode. */
  locate: readProcedure.input(z.object({ id: Id })).query(async ({ ctx, input }) => {
    const step = await ctx.db.step.findUnique({
      where: { id: input.id },
      select: { id: true, trajectoryId: true, index: true },
    });
    if (!step) throw notFound("step", input.id);
    return step;
  }),

  /** For every step of an episode, the demonstrations the experience model retrieved from the replay buffer. */
  demonstrations: readProcedure.input(z.object({ trajectoryId: Id })).query(async ({ ctx, input }) => {
    const demonstrations = await episodeDemonstrations(ctx.db, input.trajectoryId);
    if (!demonstrations) throw notFound("trajectory", input.trajectoryId);
    return demonstrations;
  }),

  flag: allowedTo({ step: ["flag"] })
    .input(
      z.object({
        id: Id,
        note: z.string().trim().max(2000, "A note is at most 2000 characters").optional(),
        category: FlagCategory,
      }),
    )
    .mutation(({ ctx, input }) =>
      flagStep(ctx.db, {
        id: input.id,
        note: input.note ? input.note : null,
        category: input.category,
        author: ctx.user.email,
      }).catch((error: unknown) => {
        if (error instanceof FlagRefused)
          throw new TRPCError({
            code: error.reason === "not-found" ? "NOT_FOUND" : "BAD_REQUEST",
            message: error.message,
          });
        throw error;
      }),
    ),

  unflag: allowedTo({ step: ["flag"] })
    .input(z.object({ id: Id }))
    .mutation(async ({ ctx, input }) => {
      const step = await unflagStep(ctx.db, input.id);
      if (!step) throw notFound("step", input.id);
      return step;
    }),

  flagged: readProcedure
    .input(
      FlaggedFilter.extend({
        page: z.number().int().min(0).default(0),
        pageSize: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(({ ctx, input }) => listFlagged(ctx.db, input)),

  /** Hallucination and fidelity figures of a run's synthetic steps against the real environment's answers. */
  fidelity: readProcedure
    .input(z.object({ runId: Id, iteration: z.number().int().min(0).optional() }))
    .query(async ({ ctx, input }) => {
      // Over the whole run it is stored when the run ends (Run.fidelity); one iteration's is measured here.
      const fidelity =
        input.iteration === undefined
          ? await storedRunFidelity(ctx.db, input.runId)
          : await runFidelity(ctx.db, input.runId, input.iteration);
      if (!fidelity) throw notFound("run", input.runId);
      return fidelity;
    }),
});
