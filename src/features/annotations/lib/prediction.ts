import type { AnnotationDetail } from "../types";

/** The prediction an annotator corrects: the reasoning, the next state, the reward and the end of the episode. */
export interface PredictionView {
  reasoning: string;
  nextState: string;
  reward: number;
  done: boolean;
}

/** The editor's fields as typed: the reward stays text until it is saved, so "0." is a fine draft. */
export interface CorrectionDraft {
  reasoning: string;
  nextState: string;
  reward: string;
  done: boolean;
}

type Item = Pick<
  AnnotationDetail,
  "teacherText" | "correction" | "correctedNextState" | "correctedReward" | "correctedDone" | "step"
>;

/** What the model said: the teacher's reasoning and the step's recorded outcome. */
export function modelOf(item: Item): PredictionView {
  return {
    reasoning: item.teacherText,
    nextState: item.step.nextState,
    reward: item.step.reward,
    done: item.step.done,
  };
}

/** The prediction as it stands: each corrected field in place of the model's. */
export function currentOf(item: Item): PredictionView {
  const model = modelOf(item);
  return {
    reasoning: item.correction ?? model.reasoning,
    nextState: item.correctedNextState ?? model.nextState,
    reward: item.correctedReward ?? model.reward,
    done: item.correctedDone ?? model.done,
  };
}

/** A fresh draft from what the item says now. */
export function draftOf(item: Item): CorrectionDraft {
  const now = currentOf(item);
  return { ...now, reward: String(now.reward) };
}

/** The reward a draft holds, or why it holds none. */
export function parseReward(text: string): { ok: true; value: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!trimmed || !Number.isFinite(value))
    return { ok: false, message: `The reward "${text}" is not a number: write it as 0, 1 or 0.5` };
  return { ok: true, value };
}

/** True when the item carries a correction of the next state, reward or end (the reasoning has its own view). */
export function hasOutcomeCorrection(item: Item): boolean {
  return item.correctedNextState !== null || item.correctedReward !== null || item.correctedDone !== null;
}
