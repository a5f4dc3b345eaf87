import { exactMatch, REWARD_TOLERANCE } from "@/core/experience/fidelity";

// In src/shared because the step view and the server (where the model is gamed: server/gamed) must judge a step
// the same way.

interface StepLike {
  nextState: string;
  reward: number;
  done: boolean;
  valid: boolean;
  realNextState: string | null;
  realReward: number | null;
  realDone: boolean | null;
  realValid: boolean | null;
}

export interface RealAnswer {
  nextState: string;
  reward: number;
  done: boolean;
  valid: boolean;
}

/** The real environment's answer to the same history and action, when the step has one. */
export function realAnswerOf(step: StepLike): RealAnswer | null {
  if (step.realNextState === null || step.realReward === null) return null;
  return {
    nextState: step.realNextState,
    reward: step.realReward,
    done: step.realDone ?? step.done,
    valid: step.realValid ?? step.valid,
  };
}

export interface Verdict {
  state: boolean;
  reward: boolean;
  done: boolean;
  valid: boolean;
  /** Any of the above: the step is worth a look. */
  any: boolean;
}

/**
 * Where a prediction departs from the real answer, judged as the fidelity figures judge it (the same word-level
 * exact match and reward tolerance), so that the step view and the run's figures agree.
 */
export function verdictOf(step: StepLike): Verdict | null {
  const real = realAnswerOf(step);
  if (!real) return null;
  const verdict = {
    state: !exactMatch(step.nextState, real.nextState),
    reward: Math.abs(step.reward - real.reward) > REWARD_TOLERANCE,
    done: step.done !== real.done,
    valid: step.valid !== real.valid,
  };
  return { ...verdict, any: verdict.state || verdict.reward || verdict.done || verdict.valid };
}
