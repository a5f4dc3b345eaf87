import { stepOf } from "../../step";
/**
 * A minimal rollout for tests and quick measurements of the shop (the real rollout lives with the training code):
 * the policy sees exactly what it would see in training, (task, history, observation).
 */
import type { Environment, Policy, Step, StepResult, Task } from "../../types";

export interface Episode {
  steps: Step[];
  last: StepResult;
}

export async function runEpisode(
  env: Environment,
  policy: Policy,
  task: Task,
  maxSteps = 100,
): Promise<Episode> {
  let obs = await env.reset(task);
  const steps: Step[] = [];
  for (let i = 0; i < maxSteps; i++) {
    const { action } = await policy.act(task, steps, obs);
    const r = await env.step(action);
    steps.push(stepOf(obs, action, r));
    obs = r.observation;
    if (r.done) return { steps, last: r };
  }
  throw new Error(`episode of ${task.id} did not end within ${maxSteps} steps`);
}
