import type { Prisma } from "@/generated/prisma/client";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { ANNOTATION_STATUSES, type AnnotationStatus } from "@/shared/enums";
import type { Db } from "../db";
import { notFound } from "./errors";

/** The queue shows at most this many items at once; narrower filters reach the rest. */
export const QUEUE_PAGE = 500;

export function annotationWhere(
  filter: Pick<AnnotationFilter, "domain" | "teacher"> & { status?: AnnotationFilter["status"] },
): Prisma.AnnotationWhereInput {
  return {
    ...(filter.status && filter.status !== "all" ? { status: filter.status } : {}),
    ...(filter.teacher ? { teacher: filter.teacher } : {}),
    ...(filter.domain ? { step: { trajectory: { domain: filter.domain } } } : {}),
  };
}

/** The queue in a stable order (oldest first), with what the list needs to tell items apart. */
export async function listQueue(db: Db, filter: AnnotationFilter) {
  const where = annotationWhere(filter);
  const [total, rows] = await Promise.all([
    db.annotation.count({ where }),
    db.annotation.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: QUEUE_PAGE,
      select: {
        id: true,
        status: true,
        teacher: true,
        author: true,
        lockedBy: true,
        lockExpiresAt: true,
        updatedAt: true,
        step: {
          select: {
            index: true,
            action: true,
            reward: true,
            trajectory: { select: { domain: true, task: { select: { instruction: true } } } },
          },
        },
      },
    }),
  ]);
  const items = rows.map((r) => ({
    id: r.id,
    status: r.status as AnnotationStatus,
    teacher: r.teacher,
    author: r.author,
    lockedBy: r.lockedBy,
    lockExpiresAt: r.lockExpiresAt,
    updatedAt: r.updatedAt,
    domain: r.step.trajectory.domain,
    stepIndex: r.step.index,
    action: r.step.action,
    reward: r.step.reward,
    instruction: r.step.trajectory.task.instruction,
  }));
  return { total, items };
}

/** Counts per status under the domain and teacher filters, and the domains and teachers there are to filter by. */
export async function queueCounts(db: Db, filter: Pick<AnnotationFilter, "domain" | "teacher">) {
  const [byStatus, teachers, domains] = await Promise.all([
    db.annotation.groupBy({ by: ["status"], where: annotationWhere(filter), _count: { _all: true } }),
    db.annotation.groupBy({ by: ["teacher"], orderBy: { teacher: "asc" } }),
    db.trajectory.findMany({
      where: { steps: { some: { annotations: { some: {} } } } },
      distinct: ["domain"],
      select: { domain: true },
      orderBy: { domain: "asc" },
    }),
  ]);
  const counts = Object.fromEntries(ANNOTATION_STATUSES.map((s) => [s, 0])) as Record<
    AnnotationStatus,
    number
  >;
  for (const row of byStatus) {
    if (row.status in counts) counts[row.status as AnnotationStatus] = row._count._all;
  }
  return {
    counts,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    teachers: teachers.map((t) => t.teacher),
    domains: domains.map((d) => d.domain),
  };
}

/** One trace with the step it explains (the transition and its task) and its review history, newest first. */
export async function getAnnotation(db: Db, id: string) {
  const row = await db.annotation.findUnique({
    where: { id },
    include: {
      events: { orderBy: [{ createdAt: "desc" }, { id: "desc" }] },
      step: {
        select: {
          id: true,
          index: true,
          state: true,
          action: true,
          nextState: true,
          reward: true,
          done: true,
          success: true,
          valid: true,
          trajectory: {
            select: {
              id: true,
              domain: true,
              source: true,
              length: true,
              task: { select: { id: true, instruction: true } },
            },
          },
        },
      },
    },
  });
  if (!row) throw notFound(id);
  return { ...row, status: row.status as AnnotationStatus };
}
