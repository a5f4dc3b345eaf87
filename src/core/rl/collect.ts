/**
 * Rollouts that keep the policy's decisions: the same rollout() as everywhere (real or synthetic environment),
 * with a per-episode view of the policy that records each decision as it is made.
 */

import { replayIfBroken } from "../envs/remote/faults";
import type { DecisionEpisode } from "../policy/decision";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { LinearValue } from "../policy/value";
import { type Episode, rollout } from "../rollout";
import type { Environment, Task } from "../types";

export interface CollectedEpisode {
  episode: Episode;
  decisions: DecisionEpisode;
}

/** Pairs an episode with the decisions that produced it (one per step, in order). */
export function toDecisionEpisode(
  episode: Episode,
  decisions: DecisionEpisode["decisions"],
): DecisionEpisode {
  if (decisions.length !== episode.steps.length)
    throw new Error(
      `episode of ${episode.task.id} has ${episode.steps.length} steps but ${decisions.length} recorded decisions`,
    );
  return { decisions, rewards: episode.steps.map((s) => s.reward), totalReward: episode.totalReward };
}

/**
 * One episode of `policy` in `env`, sampled with its own stream (`episodeKey`, e.g. "iter3:shop:train:5:g2"),
 * with PPO's old values filled in when a critic is given.
 */
export async function collectEpisode(
  env: Environment,
  policy: LinearPolicy,
  task: Task,
  maxSteps: number,
  episodeKey: string,
  value?: LinearValue,
): Promise<CollectedEpisode> {
  let breaks = 0;
  // A broken episode is played again from its start: the episode's own stream makes it the same episode.
  return replayIfBroken(
    async () => {
      const agent = policy.episode(episodeKey);
      const episode = await rollout(env, agent, task, maxSteps);
      if (breaks > 0) episode.environmentBreaks = breaks;
      if (value) for (const d of agent.decisions) d.value = value.predict(d.state);
      return { episode, decisions: toDecisionEpisode(episode, agent.decisions) };
    },
    () => {
      breaks++;
    },
  );
}

/** A GRPO group: `size` episodes of one task, each with its own sampling stream. */
export async function collectGroup(
  makeEnv: () => Environment,
  policy: LinearPolicy,
  task: Task,
  maxSteps: number,
  size: number,
  groupKey: string,
): Promise<CollectedEpisode[]> {
  return Promise.all(
    Array.from({ length: size }, (_, g) =>
      collectEpisode(makeEnv(), policy, task, maxSteps, `${groupKey}:g${g}`),
    ),
  );
}
