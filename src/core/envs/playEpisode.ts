import { stepOf } from "../step";
import type { Environment, Policy, Step, Task } from "../types";

/** Plays one episode of a policy to its end, for tests and benchmarks (the training code has its own rollout). */
export async function playEpisode(
  env: Environment,
  policy: Policy,
  task: Task,
): Promise<{ success: boolean; steps: Step[] }> {
  let observation = await env.reset(task);
  const steps: Step[] = [];
  for (;;) {
    const { action } = await policy.act(task, steps, observation);
    const result = await env.step(action);
    steps.push(stepOf(observation, action, result));
    observation = result.observation;
    if (result.done) return { success: result.success, steps };
  }
}
