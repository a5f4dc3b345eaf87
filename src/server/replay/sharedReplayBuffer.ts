import { config } from "@/env";
import type { Db } from "../db";
import { createEmbedder } from "./createEmbedder";
import { EmbedderMismatchError, type LanceReplayBuffer } from "./lanceReplayBuffer";
import { EmbeddingDimensionError } from "./openaiEmbedder";
import { openReplayBuffer } from "./openReplayBuffer";

/**
 * The replay buffer of this process, opened on first use (config().lancedbDir, the configured embedder). The
 * web reads what the worker writes, so reads check for new table versions every couple of seconds.
 */
const READ_CONSISTENCY_SECONDS = 2;

const globalForReplay = globalThis as unknown as { dreamgymReplay?: Map<string, Promise<LanceReplayBuffer>> };

export function getReplayBuffer(db: Db): Promise<LanceReplayBuffer> {
  globalForReplay.dreamgymReplay ??= new Map();
  const cache = globalForReplay.dreamgymReplay;
  const dir = config().lancedbDir;
  let store = cache.get(dir);
  if (!store) {
    store = (async () =>
      openReplayBuffer({
        lancedbDir: dir,
        embedder: await createEmbedder(config()),
        db,
        readConsistencySeconds: READ_CONSISTENCY_SECONDS,
      }))();
    // A failure (say, a mismatched embedder before a reindex) is not cached: the next call tries again.
    store.catch(() => cache.delete(dir));
    cache.set(dir, store);
  }
  return store;
}

/** Closes and forgets the cached store, e.g. after a reindex dropped its table. */
export async function forgetReplayBuffer(): Promise<void> {
  const cache = globalForReplay.dreamgymReplay;
  if (!cache) return;
  const stores = [...cache.values()];
  cache.clear();
  for (const store of stores) (await store.catch(() => undefined))?.close();
}

/**
 * Runs `work` with the cached store. When it fails with what may be a stale handle (another process may have
 * rebuilt the table under it), reopens the store once and tries again; errors that a reopen cannot fix (a
 * mismatched embedder, a cancelled job) go straight to the caller.
 */
export async function withReplayBuffer<T>(
  db: Db,
  work: (store: LanceReplayBuffer) => Promise<T>,
): Promise<T> {
  try {
    return await work(await getReplayBuffer(db));
  } catch (error) {
    if (!mayBeStale(error)) throw error;
    await forgetReplayBuffer();
    return work(await getReplayBuffer(db));
  }
}

function mayBeStale(error: unknown): boolean {
  if (error instanceof EmbedderMismatchError || error instanceof EmbeddingDimensionError) return false;
  return !(error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"));
}
