import type { Embedder } from "@/core/replay/embedder";
import { sameEmbedder } from "@/core/replay/embedder";
import type { Config } from "@/env";
import type { Db } from "../db";
import type { AnnIndexPolicy, SearchTuning } from "./annIndex";
import { createEmbedder } from "./createEmbedder";
import { readEmbedderSetting, writeEmbedderSetting } from "./embedderSetting";
import { LanceReplayBuffer } from "./lanceReplayBuffer";
import { markAllStepsPending } from "./pendingSteps";

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
  // Marking takes one write per batch of steps, so it is done while the table is still missing: an open stopped
  // halfway finds it missing again next time and starts over (builtWith is undefined when there is no table).
  const missing = (await LanceReplayBuffer.builtWith(options.lancedbDir)) === undefined;
  if (missing) await markAllStepsPending(db);
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
    // Created all the same: another process dropped the table between the check and the open.
    if (store.created && !missing) await markAllStepsPending(db);
    const recorded = await readEmbedderSetting(db);
    if (!recorded || !sameEmbedder(recorded, embedder)) await writeEmbedderSetting(db, embedder);
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The replay buffer a set of settings names (its folder, its embedder): for a process whose data is elsewhere. */
export async function openConfiguredReplayBuffer(db: Db, settings: Config): Promise<LanceReplayBuffer> {
  return openReplayBuffer({ lancedbDir: settings.lancedbDir, embedder: await createEmbedder(settings), db });
}
