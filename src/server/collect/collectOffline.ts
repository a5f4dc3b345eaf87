import type { RealDomain } from "@/core/envs/domain";
import { getRealDomain, isRealDomain, type ReferencePolicy, referencePolicy } from "@/core/envs/registry";
import { replayIfBroken } from "@/core/envs/remote/faults";
import { rollout } from "@/core/rollout";
import type { Policy, Split } from "@/core/types";
import { concurrently } from "@/core/util/concurrently";
import type { Db } from "../db";
import type { Fence } from "../queue/fence";
import { firstTasks, loadRealDomain } from "../remoteEnv/load";
import { RemoteDomain } from "../remoteEnv/remoteDomain";
import { type CollectionProvenance, collectedTrajectoryId } from "../trajectories/offlineIds";
import { saveEpisodes } from "../trajectories/saveEpisodes";

export interface CollectOptions {
  domain: string;
  policy: ReferencePolicy;
  episodes: number;
  split: Split;
  epsilon: number;
  seed: number;
  offset: number;
}

export interface CollectSummary {
  domain: string;
  policy: string;
  split: Split;
  episodes: number;
  transitions: number;
  /** Episodes already in the database from an earlier collection (same options, same content): not written again. */
  alreadyStored: number;
  successRate: number;
  meanReward: number;
  seconds: number;
}

export interface CollectHooks {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Episodes per database transaction. */
  batchSize?: number;
  /**
   * Acts instead of the reference policy (e.g. an LLM agent being evaluated), with up to `concurrency` episodes
   * in flight: its requests overlap. (A reference policy draws from one random stream, episode after episode, so
   * it plays one at a time.)
   */
  agent?: { policy: Policy; name: string; concurrency?: number };
  /** The collect job's fencing check: a batch commits only while the job is still this worker's. */
  fence?: Fence;
  /** Where a remote domain's registration is read when nothing is saved (db null: an evaluation). */
  registry?: Db;
}

/**
 * Offline data as the paper collected it: reference policies in the real environment, saved as "offline"
 * trajectories. Batches are committed one by one, so a cancelled collection keeps whole episodes only. Ids come
 * from the options and the episodes (offlineIds.ts), so collecting the same thing again adds nothing: a rerun of
 * a cancelled collection writes only what is missing.
 */
export async function collectOffline(
  db: Db | null,
  options: CollectOptions,
  hooks: CollectHooks = {},
): Promise<CollectSummary> {
  const started = performance.now();
  const domain = await collectionDomain(db ?? hooks.registry ?? null, options);
  const { policy, name } =
    hooks.agent ?? referencePolicy(domain, options.policy, options.seed, options.epsilon);
  const batchSize = hooks.batchSize ?? 100;
  const provenance: CollectionProvenance = {
    domain: options.domain,
    split: options.split,
    policy: options.policy,
    actor: name,
    epsilon: options.epsilon,
    seed: options.seed,
    offset: options.offset,
  };
  let alreadyStored = 0;
  let transitions = 0;
  let successes = 0;
  let rewardSum = 0;
  // A remote environment's policies decide from (seed, task, history) alone: its episodes may overlap, up to its limit.
  const inFlight = hooks.agent?.concurrency ?? (domain instanceof RemoteDomain ? domain.spec.concurrency : 1);
  let done = 0;
  for (let start = 0; start < options.episodes; start += batchSize) {
    if (hooks.signal?.aborted) throw hooks.signal.reason;
    const count = Math.min(batchSize, options.episodes - start);
    const episodes = await concurrently(count, inFlight, async (j) => {
      if (hooks.signal?.aborted) throw hooks.signal.reason;
      const task = domain.task(options.split, options.offset + start + j);
      // An episode a remote environment broke is played again, never saved as the policy's failure.
      const episode = await replayIfBroken(() =>
        rollout(domain.createEnvironment(), policy, task, domain.maxSteps),
      );
      hooks.onProgress?.(++done, options.episodes);
      return episode;
    });
    for (const episode of episodes) {
      transitions += episode.steps.length;
      successes += episode.success ? 1 : 0;
      rewardSum += episode.totalReward;
    }
    const ids = episodes.map((episode, j) => collectedTrajectoryId(provenance, start + j, episode));
    if (db) {
      const written = await saveEpisodes(db, episodes, {
        source: "offline",
        policy: name,
        ids,
        ...(hooks.fence ? { fence: hooks.fence } : {}),
      });
      alreadyStored += episodes.length - written.length;
    }
  }
  return {
    domain: options.domain,
    policy: name,
    split: options.split,
    episodes: options.episodes,
    transitions,
    alreadyStored,
    successRate: options.episodes ? successes / options.episodes : 0,
    meanReward: options.episodes ? rewardSum / options.episodes : 0,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The real environment to collect in: built in, or remote with the collection's tasks asked of it first. */
async function collectionDomain(db: Db | null, options: CollectOptions): Promise<RealDomain> {
  if (!db || isRealDomain(options.domain)) return getRealDomain(options.domain);
  const domain = await loadRealDomain(
    db,
    options.domain,
    firstTasks(options.split, options.episodes, options.offset),
  );
  if (!domain)
    throw new Error(
      `domain "${options.domain}" has no real environment to collect in: it is neither built in nor registered as a remote environment`,
    );
  return domain;
}
