import { z } from "zod";
import { GamedFilter, GamedFilterFields, withIterationRange } from "@/shared/gamedFilter";
import { gamedSummary } from "../../gamed/gamedSummary";
import { listGamed } from "../../gamed/listGamed";
import { createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const noRun = (id: string) => new TRPCError({ code: "NOT_FOUND", message: `No run with id ${id}` });

/**
 * "Where the model is gamed": synthetic episodes ranked by how much more the experience model paid than the real
 * environment pays for the same actions, and a run's summary of it (server/gamed).
 */
export const gamedRouter = createTRPCRouter({
  /** One page of the ranking, largest excess first. */
  episodes: readProcedure
    .input(
      withIterationRange(
        GamedFilterFields.extend({
          offset: z.number().int().min(0).max(1_000_000).default(0),
          limit: z.number().int().min(1).max(100).default(50),
        }),
      ),
    )
    .query(async ({ ctx, input }) => {
      const { offset, limit, ...filter } = input;
      if (
        filter.runId &&
        !(await ctx.db.run.findUnique({ where: { id: filter.runId }, select: { id: true } }))
      )
        throw noRun(filter.runId);
      return listGamed(ctx.db, filter, { offset, limit });
    }),

  /** The share of gamed episodes, the mean excess and why episodes part at their first divergent step. */
  summary: readProcedure.input(GamedFilter).query(async ({ ctx, input }) => {
    const summary = await gamedSummary(ctx.db, input);
    if (!summary) throw noRun(input.runId ?? "");
    return summary;
  }),
});
