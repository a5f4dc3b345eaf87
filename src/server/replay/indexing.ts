import { config } from "@/env";
import type { Db } from "../db";
import { createEmbedder } from "./createEmbedder";
import { forgetReplayStore, withReplayStore } from "./replayStore";
import { type IndexPendingResult, indexPendingSteps, reindex } from "./sync";

export interface IndexHooks {
  onProgress?: (indexed: number, total: number) => void;
  signal?: AbortSignal;
}

/** Brings the replay buffer up to date with Prisma: every step written since the last run goes into LanceDB. */
export async function indexPending(db: Db, hooks: IndexHooks = {}): Promise<IndexPendingResult> {
  return withReplayStore(db, (store) =>
    indexPendingSteps(db, store, {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      onProgress: (p) => hooks.onProgress?.(p.indexed, p.total),
    }),
  );
}

/** Drops and rebuilds the replay buffer from Prisma with the configured embedder. */
export async function rebuildIndex(db: Db, hooks: IndexHooks = {}): Promise<IndexPendingResult> {
  await forgetReplayStore();
  const result = await reindex(db, {
    lancedbDir: config().lancedbDir,
    embedder: await createEmbedder(config()),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    onProgress: (p) => hooks.onProgress?.(p.indexed, p.total),
  });
  await forgetReplayStore();
  return result;
}
