import type { LinearPolicy } from "../policy/linearPolicy";
import type { LinearValue } from "../policy/value";
import { type CollectedEpisode, collectEpisode } from "../rl/collect";
import type { Environment, Task } from "../types";
import { concurrently, yieldToTimers } from "../util/concurrently";
import type { RolloutPool } from "./rolloutPool";

export interface GroupCollection {
  batch: Task[];
  groupSize: number;
  maxSteps: number;
  /** Episode keys are `${keyPrefix}:${task.id}:g${g}`: each episode samples from its own stream. */
  keyPrefix: string;
  makeEnv: () => Environment;
  policy: LinearPolicy;
  value?: LinearValue;
  /** Episodes in flight at once (experience-model and policy requests overlap up to this many). */
  concurrency: number;
  /** Environment steps these rollouts may take at most; undefined: no limit. */
  transitionBudget?: number;
  /** Other cores that play episodes too (synthetic phases); the rest are played here. */
  pool?: RolloutPool;
}

/**
 * The G rollouts of every task of a batch, one group per task in batch order. Episodes run concurrently up to
 * `concurrency`; each has its own random stream and lands in its own slot, so the groups are the same whatever the
 * limit and whatever order the episodes finish in.
 *
 * When a transition budget could run out within the batch, the rollouts run one after another instead, each cut
 * to what is left: where a budget ends must not depend on which episode happened to finish first. A group cut
 * short (or left out) by the budget has fewer episodes; a batch the budget does not reach is left out.
 */
export async function collectGroups(c: GroupCollection): Promise<CollectedEpisode[][]> {
  const key = (task: Task, g: number) => `${c.keyPrefix}:${task.id}:g${g}`;
  // With a pool, episodes played here let its finished ones in before each step.
  const makeEnv = c.pool ? () => yielding(c.makeEnv()) : c.makeEnv;
  const episode = (task: Task, g: number, maxSteps: number) =>
    collectEpisode(makeEnv(), c.policy, task, maxSteps, key(task, g), c.value);
  const worstCase = c.batch.length * c.groupSize * c.maxSteps;
  if (c.transitionBudget !== undefined && c.transitionBudget < worstCase) {
    const groups: CollectedEpisode[][] = [];
    let remaining = c.transitionBudget;
    for (const task of c.batch) {
      if (remaining <= 0) break;
      const group: CollectedEpisode[] = [];
      for (let g = 0; g < c.groupSize && remaining > 0; g++) {
        const collected = await episode(task, g, Math.min(c.maxSteps, remaining));
        remaining -= collected.episode.steps.length;
        group.push(collected);
      }
      groups.push(group);
      await yieldToTimers();
    }
    return groups;
  }
  // Every episode of the batch at once (tasks x the group), up to the limit; slot i*G+g is task i's episode g.
  // With a pool, the limit applies here and the pool takes what it has room for besides.
  const { pool } = c;
  pool?.sync(c.policy, c.value);
  const play = (slot: number) => {
    const task = c.batch[Math.floor(slot / c.groupSize)]!;
    const g = slot % c.groupSize;
    // An episode the pool could not finish (a thread that died) is played here: it is the same episode.
    return pool?.hasRoom()
      ? pool.run(task, c.maxSteps, key(task, g)).catch(() => episode(task, g, c.maxSteps))
      : episode(task, g, c.maxSteps);
  };
  const flat = await concurrently(c.batch.length * c.groupSize, c.concurrency + (pool?.capacity ?? 0), play);
  return c.batch.map((_, i) => flat.slice(i * c.groupSize, (i + 1) * c.groupSize));
}

/**
 * An environment that lets other work run before each step: with a pool, the threads' finished episodes wait for
 * this thread's event loop, and the episodes played here would otherwise hold it for their whole length.
 */
function yielding(env: Environment): Environment {
  return {
    domain: env.domain,
    reset: (task) => env.reset(task),
    step: async (action) => {
      await new Promise((resolve) => setImmediate(resolve));
      return env.step(action);
    },
  };
}
