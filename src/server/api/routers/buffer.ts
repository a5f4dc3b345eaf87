import { z } from "zod";
import { transitionText } from "@/core/replay/transitionText";
import { TrajectorySource } from "@/shared/enums";
import { readEmbedderSetting } from "../../replay/embedderSetting";
import { EmbedderMismatchError } from "../../replay/lanceReplayBuffer";
import { withReplayBuffer } from "../../replay/sharedReplayBuffer";
import { STEP_SELECT, stepToTransition } from "../../replay/stepTransition";
import { createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const K = z.number().int().min(1).max(50).default(8);

/** A mismatched embedder is the operator's to fix (reindex), not a server fault: say so, with the command. */
function asTrpcError(error: unknown): never {
  if (error instanceof EmbedderMismatchError) {
    throw new TRPCError({ code: "PRECONDITION_FAILED", message: error.message, cause: error });
  }
  throw error;
}

/** The replay buffer, for the UI: similar transitions of a step, free-text search, and the buffer's state. */
export const bufferRouter = createTRPCRouter({
  /** A step and its nearest transitions in the buffer (itself excluded), best first. */
  neighbours: readProcedure
    .input(z.object({ stepId: z.string().min(1), k: K, sources: z.array(TrajectorySource).optional() }))
    .query(async ({ ctx, input }) => {
      const row = await ctx.db.step.findUnique({
        where: { id: input.stepId },
        select: { ...STEP_SELECT, indexedAt: true },
      });
      if (!row) throw new TRPCError({ code: "NOT_FOUND", message: `No step with id ${input.stepId}` });
      const step = stepToTransition(row);
      const neighbours = await withReplayBuffer(ctx.db, async (store) => {
        // The stored vector when the step is indexed: no embedding call (which costs a request with openai).
        const vector =
          (await store.vectorOf(step.id)) ??
          (
            await store.embedder.embed([
              transitionText({ instruction: step.instruction, state: step.state.text, action: step.action }),
            ])
          )[0]!;
        return store.nearest(vector, input.k, {
          domain: step.domain,
          excludeIds: [step.id],
          ...(input.sources ? { sources: input.sources } : {}),
        });
      }).catch(asTrpcError);
      return { step, indexed: row.indexedAt !== null, neighbours };
    }),

  /** Free-text search over the buffer, in one domain or all. */
  search: readProcedure
    .input(
      z.object({
        text: z.string().trim().min(1, "type something to search for").max(4000),
        domain: z.string().min(1).max(64).optional(),
        sources: z.array(TrajectorySource).optional(),
        k: K,
      }),
    )
    .query(async ({ ctx, input }) => {
      const results = await withReplayBuffer(ctx.db, (store) =>
        store.searchText(input.text, input.k, {
          ...(input.domain ? { domain: input.domain } : {}),
          ...(input.sources ? { sources: input.sources } : {}),
        }),
      ).catch(asTrpcError);
      return { results };
    }),

  /** Rows per domain and source, the embedder, the ANN index, and how many steps still wait to be indexed. */
  stats: readProcedure.query(async ({ ctx }) => {
    const [pendingSteps, indexedSteps, combos, recorded] = await Promise.all([
      ctx.db.step.count({ where: { indexedAt: null } }),
      ctx.db.step.count({ where: { indexedAt: { not: null } } }),
      ctx.db.trajectory.groupBy({ by: ["domain", "source"] }),
      readEmbedderSetting(ctx.db),
    ]);
    const base = { pendingSteps, indexedSteps, recordedEmbedder: recorded ?? null };
    try {
      return await withReplayBuffer(ctx.db, async (store) => {
        const rows = await Promise.all(
          combos.map(async (c) => ({
            domain: c.domain,
            source: c.source,
            rows: await store.count({ domain: c.domain, sources: [TrajectorySource.parse(c.source)] }),
          })),
        );
        const ann = await store.annIndex();
        return {
          ...base,
          status: "ok" as const,
          message: null,
          embedder: { id: store.embedder.id, dimension: store.embedder.dimension },
          totalRows: await store.count(),
          rows: rows.filter((r) => r.rows > 0),
          annIndex: ann ?? null,
          search: store.tuning,
        };
      });
    } catch (error) {
      if (!(error instanceof EmbedderMismatchError)) throw error;
      // The page still shows what it can, and what to do.
      return {
        ...base,
        status: "embedder-mismatch" as const,
        message: error.message,
        embedder: error.configured,
        totalRows: null,
        rows: [],
        annIndex: null,
        search: null,
      };
    }
  }),
});
