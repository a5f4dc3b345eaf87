import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";
import { notFound } from "./errors";

/**
 * A correction being written, as the editor holds it: the reward is the text typed so far ("0." is a fine draft
 * and no number yet), so a reload gives back exactly what was on screen.
 */
export const CorrectionDraft = z.object({
  reasoning: z.string().max(20_000, "the reasoning is at most 20,000 characters"),
  nextState: z.string().max(100_000, "the next state is at most 100,000 characters"),
  reward: z.string().max(64, "the reward is at most 64 characters"),
  done: z.boolean(),
});
export type CorrectionDraft = z.infer<typeof CorrectionDraft>;

/** Saves (or replaces) the author's draft of an item: one per annotator and item, kept until they review it. */
export async function saveDraft(
  db: Db,
  annotationId: string,
  author: string,
  draft: CorrectionDraft,
): Promise<{ updatedAt: Date }> {
  const exists = await db.annotation.count({ where: { id: annotationId } });
  if (!exists) throw notFound(annotationId);
  const value = draft as unknown as Prisma.InputJsonValue;
  const row = await db.annotationDraft.upsert({
    where: { annotationId_author: { annotationId, author } },
    create: { annotationId, author, draft: value },
    update: { draft: value },
  });
  return { updatedAt: row.updatedAt };
}

/** The author's draft of an item, or null; a stored draft that no longer reads as one is dropped, not shown. */
export async function getDraft(
  db: Db,
  annotationId: string,
  author: string,
): Promise<{ draft: CorrectionDraft; updatedAt: Date } | null> {
  const row = await db.annotationDraft.findUnique({
    where: { annotationId_author: { annotationId, author } },
  });
  if (!row) return null;
  const parsed = CorrectionDraft.safeParse(row.draft);
  return parsed.success ? { draft: parsed.data, updatedAt: row.updatedAt } : null;
}

/** Throws the draft away (the annotator cancelled the edit). */
export async function discardDraft(db: Db, annotationId: string, author: string): Promise<boolean> {
  const { count } = await db.annotationDraft.deleteMany({ where: { annotationId, author } });
  return count > 0;
}
