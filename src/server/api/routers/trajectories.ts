import { z } from "zod";
import { createTRPCRouter, publicProcedure, TRPCError } from "../trpc";

const Source = z.enum(["offline", "synthetic", "real"]);

export const trajectoriesRouter = createTRPCRouter({
  /** Domains and sources present, with counts, for the filters. */
  facets: publicProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db.trajectory.groupBy({ by: ["domain", "source"], _count: { _all: true } });
    return rows.map((r) => ({ domain: r.domain, source: r.source, count: r._count._all }));
  }),

  list: publicProcedure
    .input(
      z.object({
        domain: z.string().optional(),
        source: Source.optional(),
        success: z.boolean().optional(),
        search: z.string().max(200).optional(),
        page: z.number().int().min(0).default(0),
        pageSize: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      const where = {
        ...(input.domain ? { domain: input.domain } : {}),
        ...(input.source ? { source: input.source } : {}),
        ...(input.success !== undefined ? { success: input.success } : {}),
        ...(input.search ? { task: { instruction: { contains: input.search } } } : {}),
      };
      const [total, items] = await Promise.all([
        ctx.db.trajectory.count({ where }),
        ctx.db.trajectory.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "asc" }],
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
            task: { select: { id: true, instruction: true, split: true, origin: true } },
          },
        }),
      ]);
      return { total, items, page: input.page, pageSize: input.pageSize };
    }),

  get: publicProcedure.input(z.object({ id: z.string().min(1) })).query(async ({ ctx, input }) => {
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
        steps: { orderBy: { index: "asc" } },
      },
    });
    if (!trajectory) throw new TRPCError({ code: "NOT_FOUND", message: `No trajectory with id ${input.id}` });
    return trajectory;
  }),
});
