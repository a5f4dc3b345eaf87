import pLimit from "p-limit";

/** Let timers run (the worker's lease heartbeat): rollouts in memory may never wait on I/O otherwise. */
export const yieldToTimers = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The rollout engine's core: `count` pieces of work (episodes) with at most `limit` in flight, each result in its
 * own slot, so the results are in index order whatever order they finish in. Work that must not depend on the
 * limit gives each index its own random stream (every caller here does).
 */
export async function concurrently<T>(
  count: number,
  limit: number,
  work: (index: number) => Promise<T>,
): Promise<T[]> {
  const gate = pLimit(Math.max(1, limit));
  let failed = false;
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      gate(async () => {
        // One failure fails the whole batch (Promise.all rejects with it), so no further piece is started: a run
        // against an endpoint that is down stops at once instead of sending every queued episode's requests.
        if (failed) throw new Error(`piece ${i} not started: an earlier piece of the batch failed`);
        try {
          const result = await work(i);
          await yieldToTimers();
          return result;
        } catch (error) {
          failed = true;
          throw error;
        }
      }),
    ),
  );
}
