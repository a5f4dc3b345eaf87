import { Prisma } from "@/generated/prisma/client";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { ANNOTATION_STATUSES, type AnnotationStatus } from "@/shared/enums";
import type { Db } from "../db";
import { assigneesOf } from "./assignees";
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

const ORDER = [{ createdAt: "asc" as const }, { id: "asc" as const }];

const LIST_SELECT = {
  id: true,
  status: true,
  teacher: true,
  author: true,
  lockedBy: true,
  lockExpiresAt: true,
  updatedAt: true,
  assignees: true,
  step: {
    select: {
      index: true,
      action: true,
      reward: true,
      trajectory: { select: { domain: true, task: { select: { instruction: true } } } },
    },
  },
} satisfies Prisma.AnnotationSelect;

/**
 * The items assigned to `me` that they have not given a verdict on yet, oldest first: their work, which their
 * queue shows first. On the pending tab these are there whatever the item's status, since an item assigned to two
 * annotators stays their work until each of them has reviewed it (that is how agreement is measured).
 */
export async function myOpenItems(
  db: Db,
  filter: Pick<AnnotationFilter, "domain" | "teacher"> & { status?: AnnotationFilter["status"] },
  me: string,
): Promise<string[]> {
  const status = filter.status === "pending" ? undefined : filter.status;
  const rows = await db.annotation.findMany({
    where: {
      ...annotationWhere({ ...filter, status }),
      assignees: { not: Prisma.DbNull },
      reviews: { none: { author: me } },
    },
    orderBy: ORDER,
    select: { id: true, assignees: true },
  });
  return rows.filter((r) => assigneesOf(r.assignees).includes(me)).map((r) => r.id);
}

/**
 * The queue in a stable order (oldest first), with what the list needs to tell items apart; for a signed-in
 * annotator, the items assigned to them and not yet reviewed by them come first (see myOpenItems).
 */
export async function listQueue(db: Db, filter: AnnotationFilter, me?: string) {
  const mine = me ? await myOpenItems(db, filter, me) : [];
  const where = { ...annotationWhere(filter), ...(mine.length ? { id: { notIn: mine } } : {}) };
  const [others, mineRows, rows] = await Promise.all([
    db.annotation.count({ where }),
    mine.length
      ? db.annotation.findMany({
          where: { id: { in: mine.slice(0, QUEUE_PAGE) } },
          orderBy: ORDER,
          select: LIST_SELECT,
        })
      : Promise.resolve([]),
    db.annotation.findMany({
      where,
      orderBy: ORDER,
      take: Math.max(0, QUEUE_PAGE - mine.length),
      select: LIST_SELECT,
    }),
  ]);
  const items = [...mineRows, ...rows].map((r) => {
    const assignees = assigneesOf(r.assignees);
    return {
      id: r.id,
      status: r.status as AnnotationStatus,
      teacher: r.teacher,
      author: r.author,
      lockedBy: r.lockedBy,
      lockExpiresAt: r.lockExpiresAt,
      updatedAt: r.updatedAt,
      assignees,
      /** Assigned to the signed-in annotator and not yet reviewed by them. */
      mine: me !== undefined && mine.includes(r.id),
      domain: r.step.trajectory.domain,
      stepIndex: r.step.index,
      action: r.step.action,
      reward: r.step.reward,
      instruction: r.step.trajectory.task.instruction,
    };
  });
  return { total: others + mine.length, items };
}

/** Counts per status under the domain and teacher filters, and the domains and teachers there are to filter by. */
export async function queueCounts(db: Db, filter: Pick<AnnotationFilter, "domain" | "teacher">, me?: string) {
  const [byStatus, teachers, domains, mine] = await Promise.all([
    db.annotation.groupBy({ by: ["status"], where: annotationWhere(filter), _count: { _all: true } }),
    db.annotation.groupBy({ by: ["teacher"], orderBy: { teacher: "asc" } }),
    db.trajectory.findMany({
      where: { steps: { some: { annotations: { some: {} } } } },
      distinct: ["domain"],
      select: { domain: true },
      orderBy: { domain: "asc" },
    }),
    me
      ? db.annotation.count({
          where: {
            id: { in: await myOpenItems(db, { ...filter, status: "all" }, me) },
            status: { not: "pending" },
          },
        })
      : Promise.resolve(0),
  ]);
  const counts = Object.fromEntries(ANNOTATION_STATUSES.map((s) => [s, 0])) as Record<
    AnnotationStatus,
    number
  >;
  for (const row of byStatus) {
    if (row.status in counts) counts[row.status as AnnotationStatus] = row._count._all;
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  // The pending tab also holds the reviewed items still waiting for this annotator's own verdict.
  counts.pending += mine;
  return {
    counts,
    total,
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
      reviews: { select: { author: true, verdict: true, updatedAt: true }, orderBy: { author: "asc" } },
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
  return { ...row, status: row.status as AnnotationStatus, assignees: assigneesOf(row.assignees) };
}
