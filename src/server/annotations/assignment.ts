import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { can } from "../auth/access";
import type { Db } from "../db";
import { assigneesOf } from "./assignees";
import { AnnotationError } from "./errors";
import { annotationWhere } from "./queue";

/** Everyone who may review: who work can be assigned to. Deactivated people are left out. */
export async function listAnnotators(db: Db): Promise<{ email: string; name: string }[]> {
  const users = await db.user.findMany({
    select: { email: true, name: true, role: true, banned: true },
    orderBy: { email: "asc" },
  });
  return users
    .filter((u) => !u.banned && can(u.role, { annotation: ["review"] }))
    .map(({ email, name }) => ({ email, name }));
}

async function requireAnnotator(db: Db, email: string): Promise<void> {
  const annotators = await listAnnotators(db);
  if (!annotators.some((a) => a.email === email))
    throw new AnnotationError(
      "BAD_REQUEST",
      `${email} is not someone who may review annotations: assign work to an annotator or an admin`,
    );
}

export const AssignNextInput = z
  .object({
    annotator: z.string().trim().min(1, "choose whom to assign the items to").max(320),
    count: z
      .number()
      .int("the number of items is a whole number")
      .min(1, "assign at least one item")
      .max(1_000, "assign at most 1,000 items at once"),
    /** A share of the items also goes to a second annotator, so their verdicts can be compared. */
    overlap: z
      .object({
        with: z.string().trim().min(1, "choose the second annotator").max(320),
        percent: z.number().min(0).max(100, "the overlap is at most 100%"),
      })
      .optional(),
  })
  .refine((v) => !v.overlap || v.overlap.with !== v.annotator, {
    message: "the overlap needs a second annotator, not the same one",
    path: ["overlap", "with"],
  });
export type AssignNextInput = z.infer<typeof AssignNextInput>;

/** Which of `count` items in order also go to the second annotator: `shared` of them, spread evenly. */
export function overlapPositions(count: number, shared: number): Set<number> {
  const positions = new Set<number>();
  for (let i = 0; i < count; i++)
    if (Math.floor(((i + 1) * shared) / count) > Math.floor((i * shared) / count)) positions.add(i);
  return positions;
}

/**
 * Assigns the next `count` pending items nobody has yet (oldest first, under the queue's domain and teacher
 * filters) to one annotator; with an overlap, that share of them also to a second, for agreement.
 */
export async function assignNext(
  db: Db,
  input: AssignNextInput,
  filter: Pick<AnnotationFilter, "domain" | "teacher"> = {},
): Promise<{ assigned: number; overlapping: number; ids: string[] }> {
  await requireAnnotator(db, input.annotator);
  if (input.overlap) await requireAnnotator(db, input.overlap.with);
  const pending = await db.annotation.findMany({
    where: annotationWhere({ ...filter, status: "pending" }),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, assignees: true },
  });
  const ids = pending
    .filter((a) => assigneesOf(a.assignees).length === 0)
    .slice(0, input.count)
    .map((a) => a.id);
  const shared = input.overlap ? Math.round((ids.length * input.overlap.percent) / 100) : 0;
  const positions = overlapPositions(ids.length, shared);
  const solo = ids.filter((_, i) => !positions.has(i));
  const both = ids.filter((_, i) => positions.has(i));
  await db.$transaction([
    db.annotation.updateMany({ where: { id: { in: solo } }, data: { assignees: [input.annotator] } }),
    db.annotation.updateMany({
      where: { id: { in: both } },
      data: { assignees: [input.annotator, input.overlap?.with ?? input.annotator] },
    }),
  ]);
  return { assigned: ids.length, overlapping: both.length, ids };
}

/** Gives the chosen items to these annotators in place of whoever had them (none: unassigned). */
export async function reassign(db: Db, ids: string[], annotators: string[]): Promise<{ updated: number }> {
  for (const person of annotators) await requireAnnotator(db, person);
  const { count } = await db.annotation.updateMany({
    where: { id: { in: ids } },
    data: { assignees: annotators.length ? [...new Set(annotators)] : Prisma.DbNull },
  });
  return { updated: count };
}

export interface AnnotatorProgress {
  email: string;
  name: string;
  /** Items assigned to them. */
  assigned: number;
  /** Of those, items they gave a verdict on. */
  done: number;
  /** Verdicts they gave in all, assigned or not. */
  reviewed: number;
}

/** For each annotator: how much of their assigned work is done, and how much they reviewed in all. */
export async function progressOf(db: Db): Promise<AnnotatorProgress[]> {
  const [annotators, assignedRows, reviews] = await Promise.all([
    listAnnotators(db),
    db.annotation.findMany({
      where: { assignees: { not: Prisma.DbNull } },
      select: { id: true, assignees: true },
    }),
    db.annotationReview.findMany({ select: { annotationId: true, author: true } }),
  ]);
  const assigned = new Map<string, Set<string>>();
  for (const row of assignedRows)
    for (const person of assigneesOf(row.assignees))
      assigned.set(person, (assigned.get(person) ?? new Set()).add(row.id));
  const reviewed = new Map<string, Set<string>>();
  for (const r of reviews) reviewed.set(r.author, (reviewed.get(r.author) ?? new Set()).add(r.annotationId));
  const names = new Map(annotators.map((a) => [a.email, a.name]));
  const people = new Set([...names.keys(), ...assigned.keys(), ...reviewed.keys()]);
  return [...people].sort().map((email) => {
    const mine = assigned.get(email) ?? new Set<string>();
    const theirs = reviewed.get(email) ?? new Set<string>();
    return {
      email,
      name: names.get(email) ?? email,
      assigned: mine.size,
      done: [...mine].filter((id) => theirs.has(id)).length,
      reviewed: theirs.size,
    };
  });
}
