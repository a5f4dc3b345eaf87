/**
 * Decisions for an episode the policy did not record: an expert demonstration (behaviour cloning), an offline
 * log, or a rollout of another policy. Each step's features are recomputed from (task, steps before it, state).
 * A taken action that the candidate source does not list (the shop expert types search queries read from the
 * hidden goal) is appended as one more candidate, so the demonstration still teaches "choose this".
 */

import type { Step, Task } from "../types";
import type { Decision } from "./decision";
import type { LinearPolicy } from "./linearPolicy";

export function replayDecisions(
  policy: LinearPolicy,
  task: Task,
  steps: readonly Step[],
  logprobs?: readonly (number | undefined)[],
): Decision[] {
  return steps.map((step, t) => {
    const history = steps.slice(0, t);
    const { actions, rows, state } = policy.featurize(task, history, step.state, step.action);
    const chosen = actions.indexOf(step.action);
    const current = policy.logprobs(rows)[chosen] as number;
    return { rows, actions, chosen, logprob: logprobs?.[t] ?? current, state, step: t };
  });
}
