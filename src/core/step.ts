import type { Observation, Step, StepResult } from "./types";

/** An environment's answer to an action, as an episode's history keeps it. */
export function stepOf(state: Observation, action: string, result: StepResult): Step {
  return {
    state,
    action,
    next: result.observation,
    reward: result.reward,
    done: result.done,
    success: result.success,
    valid: result.valid,
  };
}
