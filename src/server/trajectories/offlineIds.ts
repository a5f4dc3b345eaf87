import { createHash } from "node:crypto";
import type { Episode } from "@/core/rollout";

/**
 * Ids of offline data are derived from where it came from and what it says, never drawn at random: the replay
 * buffer's row ids are these ids, so with random ones two databases seeded the same way held different buffers,
 * and a seeded run could tell them apart. The same data collected twice the same way gets the same ids (and is
 * stored once); data collected under different options gets different ids, even where the episodes coincide.
 */

/** Everything that tells one collection from another (the options of collectOffline, and who acted). */
export interface CollectionProvenance {
  domain: string;
  split: string;
  /** The reference policy asked for (expert, noisy, random). */
  policy: string;
  /** Who actually acted: the reference policy's name, or an agent's. */
  actor: string;
  epsilon: number;
  seed: number;
  offset: number;
}

function digest(parts: readonly unknown[]): string {
  // JSON of an array whose order is fixed here: the same inputs always give the same text.
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * The id of the `index`-th episode of a collection: its provenance, and its content as well, so that an episode
 * that comes out differently under the same options (an LLM agent, or a changed environment) is a new trajectory
 * rather than silently taken for the old one.
 */
export function collectedTrajectoryId(
  provenance: CollectionProvenance,
  index: number,
  episode: Episode,
): string {
  const p = provenance;
  return `off-${digest([
    "collect-v1",
    [p.domain, p.split, p.policy, p.actor, p.epsilon, p.seed, p.offset, index],
    episode.task.id,
    episode.steps.map((s) => [
      s.state.text,
      s.state.actions ?? null,
      s.action,
      s.reasoning ?? null,
      s.next.text,
      s.next.actions ?? null,
      s.reward,
      s.done,
      s.success,
      s.valid,
    ]),
  ])}`;
}

/** An imported trajectory's id: its import key is already a hash of its whole content. */
export function importedTrajectoryId(importKey: string): string {
  return `imp-${importKey}`;
}

/** A step of an offline trajectory: its trajectory and its place in it. */
export function offlineStepId(trajectoryId: string, index: number): string {
  return `${trajectoryId}-${index}`;
}
