import type { RealDomain } from "../envs/domain";
import type { LinearPolicy } from "../policy/linearPolicy";
import { rollout } from "../rollout";
import type { Environment, Task } from "../types";
import { concurrently } from "./concurrently";

export interface EvaluationResult {
  episodes: number;
  successRate: number;
  meanReward: number;
  transitions: number;
}

/**
 * Success of the policy on tasks of the real environment (or, with `makeEnv`, of another one: the synthetic
 * environment, for the sim-to-real gap). Sampled (not greedy) by default: with untrained weights greedy play
 * always takes the first candidate, which would flatter every comparison with the untrained policy.
 */
export async function evaluatePolicy(
  domain: RealDomain,
  policy: LinearPolicy,
  tasks: readonly Task[],
  options: { greedy?: boolean; key?: string; concurrency?: number; makeEnv?: () => Environment } = {},
): Promise<EvaluationResult> {
  const makeEnv = options.makeEnv ?? (() => domain.createEnvironment());
  // The rollout engine's: episodes in flight together, each with its own stream, so the limit changes nothing.
  const episodes = await concurrently(tasks.length, options.concurrency ?? 1, (i) => {
    const task = tasks[i]!;
    const agent = policy.episode(`${options.key ?? "eval"}:${task.id}`, {
      greedy: options.greedy ?? false,
      record: false,
    });
    return rollout(makeEnv(), agent, task, domain.maxSteps);
  });
  const n = Math.max(1, tasks.length);
  return {
    episodes: tasks.length,
    successRate: episodes.filter((e) => e.success).length / n,
    meanReward: episodes.reduce((sum, e) => sum + e.totalReward, 0) / n,
    transitions: episodes.reduce((sum, e) => sum + e.steps.length, 0),
  };
}
