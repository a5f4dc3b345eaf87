import { z } from "zod";
import { DomainName } from "@/core/envs/names";
import { readTrustReport } from "@/core/trust/stored";
import { readImportTrust } from "../../trust/importTrust";
import { runTrustView } from "../../trust/runTrustView";
import { createTRPCRouter, readProcedure, TRPCError } from "../trpc";

/** How far an imported domain's proxies can be trusted (core/trust): per run, and per domain at import. */
export const trustRouter = createTRPCRouter({
  run: readProcedure.input(z.object({ id: z.string().min(1).max(100) })).query(async ({ ctx, input }) => {
    const view = await runTrustView(ctx.db, input.id);
    if (!view) throw new TRPCError({ code: "NOT_FOUND", message: `No run with id ${input.id}` });
    return view;
  }),

  domain: readProcedure.input(z.object({ domain: DomainName })).query(async ({ ctx, input }) => {
    const stored = await readImportTrust(ctx.db, input.domain);
    const report = stored ? readTrustReport(stored.report) : null;
    return stored && report ? { measuredAt: stored.measuredAt, summary: stored.summary, report } : null;
  }),
});
