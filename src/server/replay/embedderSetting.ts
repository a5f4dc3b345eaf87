import { z } from "zod";
import type { EmbedderIdentity } from "@/core/replay/embedder";
import type { Db } from "../db";

/** The Setting row that says which embedder built the replay buffer's vectors. */
export const EMBEDDER_SETTING = "replay.embedder";

const Identity = z.object({ id: z.string().min(1), dimension: z.number().int().positive() });

export async function readEmbedderSetting(db: Db): Promise<EmbedderIdentity | undefined> {
  const row = await db.setting.findUnique({ where: { key: EMBEDDER_SETTING } });
  if (!row) return undefined;
  const parsed = Identity.safeParse(row.value);
  return parsed.success ? parsed.data : undefined;
}

export async function writeEmbedderSetting(db: Db, embedder: EmbedderIdentity): Promise<void> {
  const value = { id: embedder.id, dimension: embedder.dimension };
  await db.setting.upsert({
    where: { key: EMBEDDER_SETTING },
    create: { key: EMBEDDER_SETTING, value },
    update: { value },
  });
}

export async function clearEmbedderSetting(db: Db): Promise<void> {
  await db.setting.deleteMany({ where: { key: EMBEDDER_SETTING } });
}
