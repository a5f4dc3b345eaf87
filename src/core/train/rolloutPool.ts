import type { LinearPolicy } from "../policy/linearPolicy";
import type { LinearValue } from "../policy/value";
import type { CollectedEpisode } from "../rl/collect";
import type { Task } from "../types";

/**
 * Synthetic episodes played elsewhere (on other cores) with the same policy, experience model and replay buffer as
 * the run's own: each episode keeps its own random stream (its key), so whoever plays it gives the same episode,
 * and an iteration's groups are the same with the pool as without it. An episode the pool fails is played by the
 * caller instead (collectGroups.ts), so a pool that breaks slows a run down and changes nothing else.
 */
export interface RolloutPool {
  /** Episodes it plays at once, at most. */
  readonly capacity: number;
  /** Whether it can take one more episode now (else the caller plays it itself). */
  hasRoom(): boolean;
  /** Before an iteration's rollouts: the weights they act with (the policy's, and PPO's critic). */
  sync(policy: LinearPolicy, value?: LinearValue): void;
  /** One episode of the synced policy, sampled with the stream of `key`. */
  run(task: Task, maxSteps: number, key: string): Promise<CollectedEpisode>;
}
