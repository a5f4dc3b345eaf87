import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { TrajectorySource } from "@/shared/enums";
import { containsText, type Dialect } from "../sql/dialect";
import { escapeLike } from "../sql/like";

/**
 * What the episode explorer filters by. The same filter orders the list and decides which episode comes next
 * when the researcher steps from one episode to another, so both must build their query here.
 */
export const ExplorerFilter = z.object({
  domain: z.string().min(1).max(100).optional(),
  source: TrajectorySource.optional(),
  success: z.boolean().optional(),
  search: z.string().max(200).optional(),
  runId: z.string().min(1).max(100).optional(),
  iteration: z.number().int().min(0).optional(),
  taskId: z.string().min(1).max(300).optional(),
  /** Only episodes with at least one step flagged as hallucinated. */
  flagged: z.boolean().optional(),
});
export type ExplorerFilter = z.infer<typeof ExplorerFilter>;

/** The filter as a Prisma where; the dialect makes the search ignore case on either database. */
export function explorerWhere(
  filter: ExplorerFilter,
  dialect: Dialect = "sqlite",
): Prisma.TrajectoryWhereInput {
  return {
    ...(filter.domain ? { domain: filter.domain } : {}),
    ...(filter.source ? { source: filter.source } : {}),
    ...(filter.success !== undefined ? { success: filter.success } : {}),
    // The search is text to find, not a LIKE pattern: "%" finds a percent sign.
    ...(filter.search ? { task: { instruction: containsText(dialect, escapeLike(filter.search)) } } : {}),
    ...(filter.runId ? { runId: filter.runId } : {}),
    ...(filter.iteration !== undefined ? { iteration: filter.iteration } : {}),
    ...(filter.taskId ? { taskId: filter.taskId } : {}),
    ...(filter.flagged === true ? { steps: { some: { flagged: true } } } : {}),
    ...(filter.flagged === false ? { steps: { none: { flagged: true } } } : {}),
  };
}

/** Newest first; the id breaks ties (a batch of episodes shares one timestamp). */
export const EXPLORER_ORDER: Prisma.TrajectoryOrderByWithRelationInput[] = [
  { createdAt: "desc" },
  { id: "asc" },
];
