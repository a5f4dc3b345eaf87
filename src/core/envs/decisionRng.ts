import type { Step, Task } from "../types";
import { hashString, Rng } from "../util/random";

/**
 * A generator for one decision of a reference policy, seeded by the policy seed, the task and the actions so far.
 * Deriving it per call (instead of one stream per policy) keeps episodes reproducible however parallel episodes
 * interleave.
 */
export function decisionRng(seed: number, task: Task, history: readonly Step[]): Rng {
  let text = `${seed}|${task.id}`;
  for (const step of history) text += `|${step.action}`;
  return new Rng(hashString(text));
}
