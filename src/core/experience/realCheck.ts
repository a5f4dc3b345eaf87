import type { RealDomain } from "../envs/domain";
import { replayIfBroken } from "../envs/remote/faults";
import type { StepResult, Task } from "../types";

/**
 * What the real environment would have answered to a synthetic episode's actions: the same task, the same
 * actions in order (real environments are deterministic and replayable). Steps after the real episode ended have
 * no real answer (undefined). A task the real environment cannot play (no goal) has none at all.
 */
export async function realAnswers(
  domain: RealDomain,
  task: Task,
  actions: string[],
): Promise<(StepResult | undefined)[]> {
  if (task.goal === undefined) return actions.map(() => undefined);
  return replayIfBroken(() => answersOnce(domain, task, actions));
}

async function answersOnce(
  domain: RealDomain,
  task: Task,
  actions: string[],
): Promise<(StepResult | undefined)[]> {
  const env = domain.createEnvironment();
  try {
    await env.reset(task);
    const answers: (StepResult | undefined)[] = [];
    let ended = false;
    for (const action of actions) {
      if (ended) {
        answers.push(undefined);
        continue;
      }
      const result = await env.step(action);
      answers.push(result);
      ended = result.done;
    }
    return answers;
  } finally {
    await env.close?.();
  }
}
