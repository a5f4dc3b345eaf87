import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";

export interface FlagInput {
  id: string;
  note: string | null;
}

const FLAG_FIELDS = { id: true, flagged: true, flagNote: true, flaggedAt: true } as const;

/** Marks a step as a hallucinated transition; flagging again replaces the note and keeps the first time. */
export async function flagStep(db: Db, input: FlagInput) {
  const step = await db.step.findUnique({
    where: { id: input.id },
    select: { flagged: true, flaggedAt: true },
  });
  if (!step) return null;
  return db.step.update({
    where: { id: input.id },
    data: {
      flagged: true,
      flagNote: input.note,
      flaggedAt: step.flagged && step.flaggedAt ? step.flaggedAt : new Date(),
    },
    select: FLAG_FIELDS,
  });
}

export async function unflagStep(db: Db, id: string) {
  const step = await db.step.findUnique({ where: { id }, select: { id: true } });
  if (!step) return null;
  return db.step.update({
    where: { id },
    data: { flagged: false, flagNote: null, flaggedAt: null },
    select: FLAG_FIELDS,
  });
}

export interface FlaggedQuery {
  runId?: string | undefined;
  domain?: string | undefined;
  page: number;
  pageSize: number;
}

/** Flagged steps, most recently flagged first, with what is needed to open each one where it happened. */
export async function listFlagged(db: Db, query: FlaggedQuery) {
  const where: Prisma.StepWhereInput = {
    flagged: true,
    ...(query.runId || query.domain
      ? {
          trajectory: {
            ...(query.runId ? { runId: query.runId } : {}),
            ...(query.domain ? { domain: query.domain } : {}),
          },
        }
      : {}),
  };
  const [total, items] = await Promise.all([
    db.step.count({ where }),
    db.step.findMany({
      where,
      orderBy: [{ flaggedAt: "desc" }, { id: "asc" }],
      skip: query.page * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        index: true,
        action: true,
        nextState: true,
        reward: true,
        realNextState: true,
        realReward: true,
        flagNote: true,
        flaggedAt: true,
        trajectory: {
          select: {
            id: true,
            domain: true,
            source: true,
            runId: true,
            iteration: true,
            run: { select: { name: true } },
            task: { select: { instruction: true } },
          },
        },
      },
    }),
  ]);
  return { total, items, page: query.page, pageSize: query.pageSize };
}
