import {
  exactMatch,
  type FidelityInputs,
  hallucinatedElements,
  REWARD_TOLERANCE,
  tokenF1,
} from "@/core/experience/fidelity";

/**
 * A predicted next state is right when it is the real one word for word (case and spacing aside), or when it
 * shares at least this token F1 with it and adds no element found neither in the real state nor in what the model
 * was given (fidelity.ts hallucinatedElements). 0.9 lets a page through that differs in a word of wording, and
 * stops one whose listing, options or room contents changed: on the shop, a search page with one product swapped
 * scores about 0.85.
 */
export const NEXT_STATE_RIGHT_F1 = 0.9;

export interface CaseAnswer {
  nextState: string;
  reward: number;
  done: boolean;
}

export interface CaseVerdict {
  nextStateOk: boolean;
  rewardOk: boolean;
  doneOk: boolean;
  /** Token F1 of the predicted next state against the real one, kept for the page. */
  f1: number;
  hallucinated: number;
}

/** Whether a prediction gets a case right, part by part, by the fidelity figures' own measures. */
export function judgeCase(predicted: CaseAnswer, expected: CaseAnswer, inputs: FidelityInputs): CaseVerdict {
  const f1 = tokenF1(predicted.nextState, expected.nextState);
  const hallucinated = hallucinatedElements(predicted.nextState, expected.nextState, inputs).length;
  return {
    nextStateOk:
      exactMatch(predicted.nextState, expected.nextState) ||
      (f1 >= NEXT_STATE_RIGHT_F1 && hallucinated === 0),
    rewardOk: Math.abs(predicted.reward - expected.reward) <= REWARD_TOLERANCE,
    doneOk: predicted.done === expected.done,
    f1: Math.round(f1 * 10_000) / 10_000,
    hallucinated,
  };
}

export const isRight = (c: { nextStateOk: boolean; rewardOk: boolean; doneOk: boolean }) =>
  c.nextStateOk && c.rewardOk && c.doneOk;

/** What a version did to a case against the version before it that ran the case. */
export type CaseMark = "fixed" | "broken" | null;

/**
 * Marks along versions in the order they were made: a case right before and wrong now is "broken", wrong before
 * and right now "fixed". `results[i]` is the i-th version's verdict on the case, or undefined where that version
 * did not run it (the comparison then reaches back to the last version that did).
 */
export function marksOf(results: readonly (boolean | undefined)[]): CaseMark[] {
  let previous: boolean | undefined;
  return results.map((right) => {
    if (right === undefined) return null;
    const mark: CaseMark = previous === undefined || previous === right ? null : right ? "fixed" : "broken";
    previous = right;
    return mark;
  });
}
