import { z } from "zod";
import { ImportName } from "@/shared/names";
import { deleteImport, listImports, previewImportDeletion } from "../../retention/deleteImport";
import { sharedLanceRows } from "../../retention/lanceRows";
import { dialectOf } from "../../sql/dialect";
import { adjacentEpisodes } from "../../steps/adjacentEpisodes";
import { EXPLORER_ORDER, ExplorerFilter, explorerWhere } from "../../steps/explorerFilter";
import { retentionAsTrpc } from "../retentionErrors";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const TrajectoryId = z.string().min(1).max(100);
/** An import by its name (control characters cleaned as they were when it was stored). */
const ImportByName = z.object({ name: ImportName });

export const trajectoriesRouter = createTRPCRouter({
  /** Domains and sources present, with counts, for the filters. */
  facets: readProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db.trajectory.groupBy({ by: ["domain", "source"], _count: { _all: true } });
    return rows.map((r) => ({ domain: r.domain, source: r.source, count: r._count._all }));
  }),

  /** Runs that have episodes, with the iterations they have episodes in, for the run and iteration filters. */
  runOptions: readProcedure.query(async ({ ctx }) => {
    const [runs, iterations] = await Promise.all([
      ctx.db.run.findMany({
        orderBy: [{ createdAt: "desc" }, { id: "asc" }],
        select: { id: true, name: true, domain: true, status: true },
      }),
      ctx.db.trajectory.groupBy({
        by: ["runId", "iteration"],
        where: { runId: { not: null } },
        _count: { _all: true },
      }),
    ]);
    return runs.map((run) => ({
      ...run,
      iterations: iterations
        .filter((i) => i.runId === run.id && i.iteration !== null)
        .map((i) => ({ iteration: i.iteration as number, episodes: i._count._all }))
        .sort((a, b) => a.iteration - b.iteration),
    }));
  }),

  list: readProcedure
    .input(
      ExplorerFilter.extend({
        page: z.number().int().min(0).default(0),
        pageSize: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      const where = explorerWhere(input, dialectOf(ctx.db));
      const [total, items] = await Promise.all([
        ctx.db.trajectory.count({ where }),
        ctx.db.trajectory.findMany({
          where,
          orderBy: EXPLORER_ORDER,
          skip: input.page * input.pageSize,
          take: input.pageSize,
          select: {
            id: true,
            domain: true,
            source: true,
            policy: true,
            success: true,
            totalReward: true,
            length: true,
            createdAt: true,
            runId: true,
            iteration: true,
            group: true,
            run: { select: { name: true } },
            task: { select: { id: true, instruction: true, split: true, origin: true } },
            _count: { select: { steps: { where: { flagged: true } } } },
          },
        }),
      ]);
      return {
        total,
        items: items.map(({ _count, ...t }) => ({ ...t, flaggedSteps: _count.steps })),
        page: input.page,
        pageSize: input.pageSize,
      };
    }),

  get: readProcedure.input(z.object({ id: TrajectoryId })).query(async ({ ctx, input }) => {
    const trajectory = await ctx.db.trajectory.findUnique({
      where: { id: input.id },
      include: {
        task: {
          select: {
            id: true,
            instruction: true,
            split: true,
            origin: true,
            parentId: true,
            generation: true,
          },
        },
        run: { select: { id: true, name: true } },
        steps: { orderBy: { index: "asc" } },
      },
    });
    if (!trajectory) throw new TRPCError({ code: "NOT_FOUND", message: `No trajectory with id ${input.id}` });
    return trajectory;
  }),

  /** The episodes before and after this one in the explorer's filtered list, for next/previous episode. */
  adjacent: readProcedure
    .input(z.object({ id: TrajectoryId, filter: ExplorerFilter.default({}) }))
    .query(async ({ ctx, input }) => {
      const adjacent = await adjacentEpisodes(ctx.db, input.id, input.filter);
      if (!adjacent) throw new TRPCError({ code: "NOT_FOUND", message: `No trajectory with id ${input.id}` });
      return adjacent;
    }),

  /** Imported files (trajectories grouped by import name), newest first. */
  imports: readProcedure.query(({ ctx }) => listImports(ctx.db)),

  /** What deleting an import would remove (for the confirmation), and why it cannot be deleted now, if so. */
  importDeletePreview: readProcedure
    .input(ImportByName)
    .query(({ ctx, input }) => previewImportDeletion(ctx.db, input.name).catch(retentionAsTrpc)),

  /** Deletes an import's trajectories, steps, annotations, its own tasks and their LanceDB rows. */
  deleteImport: allowedTo({ data: ["delete"] })
    .input(ImportByName)
    .mutation(({ ctx, input }) =>
      deleteImport(ctx.db, input.name, sharedLanceRows(ctx.db)).catch(retentionAsTrpc),
    ),
});
