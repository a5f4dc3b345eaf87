import type { Embedder } from "@/core/replay/embedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import type { Transition } from "@/core/types";
import type { Db } from "../db";
import { offlineEpisodes } from "./offlineEpisodes";

/**
 * The domain's offline transitions on train tasks, in a fixed order. Logs of held-out test tasks stay out: the
 * experience model must not have seen the episodes a run is evaluated on.
 */
export async function offlineTransitions(db: Db, domain: string): Promise<Transition[]> {
  return (await offlineEpisodes(db, domain, { split: "train" })).flatMap((e) => e.steps);
}

/**
 * A run's replay buffer: the domain's offline transitions (read here, or given when the caller has them already),
 * in memory. Exact search over a few thousand to tens of thousands of transitions takes well under a millisecond
 * in process, against ~10 ms a LanceDB query (see the retrieval bench), and a run makes hundreds of thousands of
 * them. The embedder is the configured one, so that a run retrieves by the same similarity as the LanceDB buffer.
 */
export async function offlineBuffer(
  db: Db,
  domain: string,
  embedder: Embedder,
  transitions?: Transition[],
): Promise<MemoryReplayBuffer> {
  const rows = transitions ?? (await offlineTransitions(db, domain));
  if (rows.length === 0) {
    throw new Error(
      `no offline transitions for domain "${domain}": run \`npm run cli -- seed\` or \`npm run cli -- collect --domain ${domain} …\` first`,
    );
  }
  const buffer = new MemoryReplayBuffer(embedder);
  await buffer.add(rows);
  return buffer;
}
