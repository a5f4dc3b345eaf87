import type { Prisma } from "@/generated/prisma/client";
import type { FlagCategory } from "@/shared/enums";
import type { FlaggedFilter } from "@/shared/flaggedFilter";
import type { Db } from "../db";

export interface FlagInput {
  id: string;
  note: string | null;
  category: FlagCategory;
  /** Who flagged it: the reviewer's name (there is no sign-in; see the annotation queue). */
  author: string;
}

const FLAG_FIELDS = {
  id: true,
  flagged: true,
  flagNote: true,
  flagCategory: true,
  flagAuthor: true,
  flaggedAt: true,
} as const;

/** Why a step cannot be flagged: it does not exist, or nothing in it was predicted. */
export class FlagRefused extends Error {
  constructor(
    readonly reason: "not-found" | "not-predicted",
    message: string,
  ) {
    super(message);
    this.name = "FlagRefused";
  }
}

/**
 * Marks a step as a hallucinated transition; flagging again replaces the note, category and author and keeps the
 * first time. Only a synthetic step holds a prediction to be wrong: an offline or real step is what the
 * environment did.
 */
export async function flagStep(db: Db, input: FlagInput) {
  const step = await db.step.findUnique({
    where: { id: input.id },
    select: { flagged: true, flaggedAt: true, trajectory: { select: { source: true } } },
  });
  if (!step) throw new FlagRefused("not-found", `No step with id ${input.id}`);
  if (step.trajectory.source !== "synthetic")
    throw new FlagRefused(
      "not-predicted",
      `Only synthetic steps can be flagged: this ${step.trajectory.source} step is what the environment did, not a prediction`,
    );
  return db.step.update({
    where: { id: input.id },
    data: {
      flagged: true,
      flagNote: input.note,
      flagCategory: input.category,
      flagAuthor: input.author,
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
    data: { flagged: false, flagNote: null, flagCategory: null, flagAuthor: null, flaggedAt: null },
    select: FLAG_FIELDS,
  });
}

/** The flagged steps a filter selects (the list and the export agree on it). */
export function flaggedWhere(filter: FlaggedFilter): Prisma.StepWhereInput {
  return {
    flagged: true,
    ...(filter.author ? { flagAuthor: filter.author } : {}),
    ...(filter.category ? { flagCategory: filter.category } : {}),
    ...(filter.runId || filter.domain
      ? {
          trajectory: {
            ...(filter.runId ? { runId: filter.runId } : {}),
            ...(filter.domain ? { domain: filter.domain } : {}),
          },
        }
      : {}),
  };
}

export interface FlaggedQuery extends FlaggedFilter {
  page: number;
  pageSize: number;
}

/**
 * Flagged steps, most recently flagged first, with what is needed to open each one where it happened, and the
 * authors there are to filter by.
 */
export async function listFlagged(db: Db, query: FlaggedQuery) {
  const where = flaggedWhere(query);
  const [total, items, authors] = await Promise.all([
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
        flagCategory: true,
        flagAuthor: true,
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
    db.step.findMany({
      where: { flagged: true, flagAuthor: { not: null } },
      distinct: ["flagAuthor"],
      select: { flagAuthor: true },
      orderBy: { flagAuthor: "asc" },
    }),
  ]);
  return {
    total,
    items,
    authors: authors.map((a) => a.flagAuthor).filter((a): a is string => a !== null),
    page: query.page,
    pageSize: query.pageSize,
  };
}
