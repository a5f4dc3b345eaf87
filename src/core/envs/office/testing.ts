import type { Policy, Step, Task } from "../../types";
import { OfficeEnvironment } from "./env";

/** Plays one episode of a policy, for tests and benchmarks (the training code has its own rollout). */
export async function playEpisode(policy: Policy, task: Task): Promise<{ success: boolean; steps: Step[] }> {
  const env = new OfficeEnvironment();
  let observation = await env.reset(task);
  const steps: Step[] = [];
  for (;;) {
    const { action } = await policy.act(task, steps, observation);
    const result = await env.step(action);
    steps.push({
      state: observation,
      action,
      next: result.observation,
      reward: result.reward,
      done: result.done,
      success: result.success,
      valid: result.valid,
    });
    observation = result.observation;
    if (result.done) return { success: result.success, steps };
  }
}
