import type { Embedder } from "@/core/replay/embedder";
import { sameEmbedder } from "@/core/replay/embedder";
import type { Db } from "../db";
import type { AnnIndexPolicy, SearchTuning } from "./annIndex";
import { readEmbedderSetting, writeEmbedderSetting } from "./embedderSetting";
import { LanceReplayBuffer } from "./lanceReplayBuffer";

export interface OpenReplayBufferOptions {
  lancedbDir: string;
  embedder: Embedder;
  db: Db;
  ann?: Partial<AnnIndexPolicy>;
  search?: Partial<SearchTuning>;
  readConsistencySeconds?: number;
}

/**
 * Opens the replay buffer's LanceDB table, creating it when missing, and keeps Prisma's account of it true:
 * - a table built by another embedder is refused (EmbedderMismatchError: run `npm run cli -- reindex`);
 * - a table created here holds nothing, so any step Prisma marks as indexed (say the folder was deleted, or a
 *   reindex stopped after dropping the table) is marked pending again, for indexPendingSteps to write;
 * - the Setting "replay.embedder" records the embedder that built the table.
 */
export async function openReplayBuffer(options: OpenReplayBufferOptions): Promise<LanceReplayBuffer> {
  const { db, embedder } = options;
  const store = await LanceReplayBuffer.open({
    dir: options.lancedbDir,
    embedder,
    ...(options.ann ? { ann: options.ann } : {}),
    ...(options.search ? { search: options.search } : {}),
    ...(options.readConsistencySeconds !== undefined
      ? { readConsistencySeconds: options.readConsistencySeconds }
      : {}),
  });
  try {
    if (store.created) {
      await db.step.updateMany({ where: { indexedAt: { not: null } }, data: { indexedAt: null } });
    }
    const recorded = await readEmbedderSetting(db);
    if (!recorded || !sameEmbedder(recorded, embedder)) await writeEmbedderSetting(db, embedder);
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}
