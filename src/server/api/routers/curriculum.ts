import { z } from "zod";
import { runHeatmap, taskIterationStats } from "../../curriculum/heatmap";
import { runLineage } from "../../curriculum/lineage";
import type { Db } from "../../db";
import { createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const RunId = z.object({ runId: z.string().min(1, "runId is required") });

async function requireRun(db: Db, runId: string) {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
  if (!run) throw new TRPCError({ code: "NOT_FOUND", message: `No run with id ${runId}` });
}

export const curriculumRouter = createTRPCRouter({
  /** Runs to pick from, with how many per-task statistics each has written so far. */
  runs: readProcedure
    .input(z.object({ limit: z.number().int().min(1).max(500).default(200) }).prefault({}))
    .query(async ({ ctx, input }) => {
      const runs = await ctx.db.run.findMany({
        orderBy: { createdAt: "desc" },
        take: input.limit,
        select: {
          id: true,
          name: true,
          method: true,
          domain: true,
          status: true,
          iteration: true,
          createdAt: true,
          _count: { select: { taskStats: true, tasks: true } },
        },
      });
      return runs.map(({ _count, ...run }) => ({
        ...run,
        taskStats: _count.taskStats,
        generatedTasks: _count.tasks,
      }));
    }),

  /** Reward variance per task and iteration, tasks sorted by mean variance; flat row-major arrays. */
  heatmap: readProcedure.input(RunId).query(async ({ ctx, input }) => {
    await requireRun(ctx.db, input.runId);
    return runHeatmap(ctx.db, input.runId);
  }),

  /** One task's statistics in every iteration of the run: mean reward, success, rollouts, variance. */
  taskStats: readProcedure
    .input(RunId.extend({ taskId: z.string().min(1, "taskId is required") }))
    .query(({ ctx, input }) => taskIterationStats(ctx.db, input.runId, input.taskId)),

  /** Seed tasks and the variations the run's curriculum wrote of them, as a depth-first tree. */
  lineage: readProcedure
    .input(RunId.extend({ limit: z.number().int().min(1).max(10_000).default(2_000) }))
    .query(async ({ ctx, input }) => {
      await requireRun(ctx.db, input.runId);
      return runLineage(ctx.db, input.runId, input.limit);
    }),
});
