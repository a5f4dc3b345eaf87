import { z } from "zod";
import { listChecks } from "../../regression/checks";
import { CASE_SOURCES, regressionMatrix } from "../../regression/matrix";
import { CheckRefused, checkOptions, startCheck } from "../../regression/startCheck";
import { CheckScope, ExperienceVersion } from "../../regression/version";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const Domain = z.string().trim().min(1).max(100);

/**
 * The experience model's regression suite: versions of the model run against the flagged steps and held-out
 * transitions of a domain, as worker jobs, and their cases side by side (server/regression).
 */
export const regressionRouter = createTRPCRouter({
  options: readProcedure.query(({ ctx }) => checkOptions(ctx.db)),

  /** The checks, newest first, with their jobs' progress while they run. */
  checks: readProcedure
    .input(z.object({ domain: Domain.optional() }))
    .query(({ ctx, input }) => listChecks(ctx.db, input.domain)),

  /** A domain's cases across its finished versions, with what each version fixed and broke. */
  matrix: readProcedure
    .input(z.object({ domain: Domain, source: z.enum(CASE_SOURCES).default("flagged") }))
    .query(({ ctx, input }) => regressionMatrix(ctx.db, input.domain, input.source)),

  /** Runs a version of the experience model against the suite (a worker job). */
  start: allowedTo({ run: ["launch"] })
    .input(z.object({ version: ExperienceVersion, scope: CheckScope }))
    .mutation(({ ctx, input }) =>
      startCheck(ctx.db, input.version, input.scope, ctx.user.email).catch((error: unknown) => {
        if (error instanceof CheckRefused)
          throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
        throw error;
      }),
    ),
});
