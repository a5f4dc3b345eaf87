import { actionList, divergence } from "./divergence";

// In src/shared because the step view and the server (where the model is gamed: server/gamed) must judge a step
// the same way.

interface StepLike {
  nextState: string;
  /** The predicted page's admissible actions, where the domain lists them (the choices the model offered). */
  nextActions?: unknown;
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
 * Where a prediction departs from the real answer in a way that matters (shared/divergence): the next state when
 * its elements or the choices it offers differ (case, spacing and the order of unchanged text are cosmetic), the
 * reward beyond the fidelity figures' tolerance, the end, validity.
 */
export function verdictOf(step: StepLike): Verdict | null {
  const real = realAnswerOf(step);
  if (!real) return null;
  const d = divergence(
    {
      text: step.nextState,
      actions: actionList(step.nextActions),
      reward: step.reward,
      done: step.done,
      valid: step.valid,
    },
    { text: real.nextState, reward: real.reward, done: real.done, valid: real.valid },
  );
  return { state: d.elements || d.choices, reward: d.reward, done: d.end, valid: d.validity, any: d.any };
}
