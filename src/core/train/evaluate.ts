import type { RealDomain } from "../envs/domain";
import type { LinearPolicy } from "../policy/linearPolicy";
import { rollout } from "../rollout";
import type { Task } from "../types";

export interface EvaluationResult {
  episodes: number;
  successRate: number;
  meanReward: number;
  transitions: number;
}

/**
 * Success of the policy on tasks of the real environment. Sampled (not greedy) by default: with untrained weights
 * greedy play always takes the first candidate, which would flatter every comparison with the untrained policy.
 */
export async function evaluatePolicy(
  domain: RealDomain,
  policy: LinearPolicy,
  tasks: readonly Task[],
  options: { greedy?: boolean; key?: string } = {},
): Promise<EvaluationResult> {
  let successes = 0;
  let reward = 0;
  let transitions = 0;
  for (const task of tasks) {
    const agent = policy.episode(`${options.key ?? "eval"}:${task.id}`, {
      greedy: options.greedy ?? false,
      record: false,
    });
    const episode = await rollout(domain.createEnvironment(), agent, task, domain.maxSteps);
    successes += episode.success ? 1 : 0;
    reward += episode.totalReward;
    transitions += episode.steps.length;
  }
  const n = Math.max(1, tasks.length);
  return { episodes: tasks.length, successRate: successes / n, meanReward: reward / n, transitions };
}
