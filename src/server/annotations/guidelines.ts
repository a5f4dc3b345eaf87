import { z } from "zod";
import { logAdminAction } from "../audit/adminLog";
import type { Db } from "../db";

/** Where the annotation guidelines are kept (the Setting table). */
export const GUIDELINES_KEY = "annotation.guidelines";

export const GuidelinesText = z.string().max(20_000, "the guidelines are at most 20,000 characters");

const Stored = z.object({ text: z.string(), updatedBy: z.string().nullable() });

export interface Guidelines {
  text: string;
  updatedBy: string | null;
  updatedAt: Date | null;
}

/** What annotators are asked to do, as an admin last wrote it; empty until one does. */
export async function getGuidelines(db: Db): Promise<Guidelines> {
  const row = await db.setting.findUnique({ where: { key: GUIDELINES_KEY } });
  const parsed = Stored.safeParse(row?.value);
  if (!row || !parsed.success) return { text: "", updatedBy: null, updatedAt: null };
  return { ...parsed.data, updatedAt: row.updatedAt };
}

/** Replaces the guidelines, and records who did it in the audit log of admin actions. */
export async function setGuidelines(
  db: Db,
  actor: { id: string; email: string },
  text: string,
): Promise<Guidelines> {
  const value = { text: text.trim(), updatedBy: actor.email };
  const before = await getGuidelines(db);
  const row = await db.setting.upsert({
    where: { key: GUIDELINES_KEY },
    create: { key: GUIDELINES_KEY, value },
    update: { value },
  });
  await logAdminAction(db, {
    actor: actor.id,
    action: "guidelines.edit",
    target: GUIDELINES_KEY,
    detail: { charsBefore: before.text.length, charsAfter: value.text.length },
  });
  return { ...value, updatedAt: row.updatedAt };
}
