import type { Environment, Policy, Step, Task } from "./types";

export interface Episode {
  task: Task;
  steps: Step[];
  totalReward: number;
  success: boolean;
  /** Log-probabilities of the chosen actions under the acting policy, when it reports them (for PPO/GRPO ratios). */
  logprobs: (number | undefined)[];
  /** What the environment said besides the outcome, per step (a synthetic step's model, latency, neighbours). */
  infos: (Record<string, unknown> | undefined)[];
  /** Times the environment broke this episode before it was played through (remote environments only). */
  environmentBreaks?: number;
}

/**
 * One episode of a policy in an environment. The same function runs in real and synthetic environments: the
 * RL code cannot tell them apart (ARCHITECTURE.md "Contracts").
 */
export async function rollout(
  env: Environment,
  policy: Policy,
  task: Task,
  maxSteps: number,
): Promise<Episode> {
  try {
    return await play(env, policy, task, maxSteps);
  } finally {
    await env.close?.();
  }
}

async function play(env: Environment, policy: Policy, task: Task, maxSteps: number): Promise<Episode> {
  let observation = await env.reset(task);
  const steps: Step[] = [];
  const logprobs: (number | undefined)[] = [];
  const infos: (Record<string, unknown> | undefined)[] = [];
  let totalReward = 0;
  let success = false;
  for (let t = 0; t < maxSteps; t++) {
    const decision = await policy.act(task, steps, observation);
    const result = await env.step(decision.action);
    const reasoning = typeof result.info?.reasoning === "string" ? result.info.reasoning : undefined;
    steps.push({
      state: observation,
      action: decision.action,
      ...(reasoning !== undefined ? { reasoning } : {}),
      next: result.observation,
      reward: result.reward,
      done: result.done,
      success: result.success,
      valid: result.valid,
    });
    logprobs.push(decision.logprob);
    infos.push(result.info);
    totalReward += result.reward;
    success = result.success;
    observation = result.observation;
    if (result.done) break;
  }
  return { task, steps, totalReward, success, logprobs, infos };
}
