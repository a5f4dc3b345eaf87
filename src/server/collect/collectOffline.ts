import { getRealDomain, type ReferencePolicy, referencePolicy } from "@/core/envs/registry";
import { type Episode, rollout } from "@/core/rollout";
import type { Policy, Split } from "@/core/types";
import type { Db } from "../db";
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
  /** Acts instead of the reference policy (e.g. an LLM agent being evaluated). */
  agent?: { policy: Policy; name: string };
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
  const domain = getRealDomain(options.domain);
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
  let batch: Episode[] = [];
  let ids: string[] = [];
  let alreadyStored = 0;
  let transitions = 0;
  let successes = 0;
  let rewardSum = 0;
  for (let i = 0; i < options.episodes; i++) {
    if (hooks.signal?.aborted) throw hooks.signal.reason;
    const task = domain.task(options.split, options.offset + i);
    const episode = await rollout(domain.createEnvironment(), policy, task, domain.maxSteps);
    transitions += episode.steps.length;
    successes += episode.success ? 1 : 0;
    rewardSum += episode.totalReward;
    batch.push(episode);
    ids.push(collectedTrajectoryId(provenance, i, episode));
    if (batch.length >= batchSize || i === options.episodes - 1) {
      if (db) {
        const written = await saveEpisodes(db, batch, { source: "offline", policy: name, ids });
        alreadyStored += batch.length - written.length;
      }
      batch = [];
      ids = [];
    }
    hooks.onProgress?.(i + 1, options.episodes);
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
