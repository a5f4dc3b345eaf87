import { z } from "zod";
import type { Annotation } from "@/generated/prisma/client";
import type { AnnotationStatus } from "@/shared/enums";
import { AnnotationError } from "./errors";

/**
 * The whole prediction an annotator can correct: the reasoning, the next state, the reward and the end of the
 * episode. Each is stored apart (Annotation.correction and corrected*), null where the model's own stands.
 */
export const CORRECTION_FIELDS = ["reasoning", "nextState", "reward", "done"] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];

export interface Prediction {
  reasoning: string;
  nextState: string;
  reward: number;
  done: boolean;
}

/** What an edit sends: any of the fields; one left out keeps what the trace says now. */
export const CorrectionInput = z.object({
  reasoning: z.string().max(20_000, "the reasoning is at most 20,000 characters").optional(),
  nextState: z.string().max(100_000, "the next state is at most 100,000 characters").optional(),
  reward: z
    .number({ message: "the reward must be a number" })
    .finite("the reward must be a finite number")
    .optional(),
  done: z.boolean().optional(),
});
export type CorrectionInput = z.infer<typeof CorrectionInput>;

/** The corrections as stored: null where the model's value stands. */
export interface StoredCorrection {
  correction: string | null;
  correctedNextState: string | null;
  correctedReward: number | null;
  correctedDone: boolean | null;
}

export type FieldChange<T> = { before: T; after: T };

/**
 * A review event's diff: the status, and each field of the prediction that changed, as it read before and after
 * (the value in force, the model's where nothing was corrected). `review` keeps the author's own earlier verdict
 * so an undo can put it back; `undoes` names the event an undo reversed.
 */
export interface EventDiff {
  status: FieldChange<AnnotationStatus>;
  fields: { [K in CorrectionField]?: FieldChange<Prediction[K]> };
  review?: { before: ReviewSnapshot | null };
  undoes?: string;
}

/** One annotator's verdict on an item, as AnnotationReview holds it. */
export interface ReviewSnapshot {
  verdict: Exclude<AnnotationStatus, "pending">;
  reasoning: string | null;
  nextState: string | null;
  reward: number | null;
  done: boolean | null;
}

/** The model's prediction for a step: the teacher's reasoning and the step's recorded outcome. */
export function modelPrediction(
  annotation: Pick<Annotation, "teacherText">,
  step: { nextState: string; reward: number; done: boolean },
): Prediction {
  return {
    reasoning: annotation.teacherText,
    nextState: step.nextState,
    reward: step.reward,
    done: step.done,
  };
}

/** The prediction as it stands: each corrected field in place of the model's. */
export function currentPrediction(stored: StoredCorrection, model: Prediction): Prediction {
  return {
    reasoning: stored.correction ?? model.reasoning,
    nextState: stored.correctedNextState ?? model.nextState,
    reward: stored.correctedReward ?? model.reward,
    done: stored.correctedDone ?? model.done,
  };
}

/** Stores a prediction as corrections: a field equal to the model's is no correction and stays null. */
export function storedOf(prediction: Prediction, model: Prediction): StoredCorrection {
  return {
    correction: prediction.reasoning === model.reasoning ? null : prediction.reasoning,
    correctedNextState: prediction.nextState === model.nextState ? null : prediction.nextState,
    correctedReward: prediction.reward === model.reward ? null : prediction.reward,
    correctedDone: prediction.done === model.done ? null : prediction.done,
  };
}

/** True when any field of the prediction differs from the model's. */
export function isCorrected(stored: StoredCorrection): boolean {
  return (
    stored.correction !== null ||
    stored.correctedNextState !== null ||
    stored.correctedReward !== null ||
    stored.correctedDone !== null
  );
}

/** The fields that differ between two predictions, each with its value before and after. */
export function fieldChanges(before: Prediction, after: Prediction): EventDiff["fields"] {
  const changes: EventDiff["fields"] = {};
  for (const field of CORRECTION_FIELDS) {
    if (before[field] !== after[field])
      (changes as Record<string, FieldChange<unknown>>)[field] = {
        before: before[field],
        after: after[field],
      };
  }
  return changes;
}

/**
 * The prediction an edit asks for: the fields sent, trimmed where they are text, over what the trace says now.
 * Refused when the result is empty or no different from the model's own prediction.
 */
export function editedPrediction(input: CorrectionInput, now: Prediction, model: Prediction): Prediction {
  const next: Prediction = {
    reasoning: input.reasoning !== undefined ? input.reasoning.trim() : now.reasoning,
    nextState: input.nextState !== undefined ? input.nextState.trim() : now.nextState,
    reward: input.reward ?? now.reward,
    done: input.done ?? now.done,
  };
  if (!next.reasoning)
    throw new AnnotationError(
      "BAD_REQUEST",
      "The correction is empty: write the corrected reasoning, or reject the trace",
    );
  if (!next.nextState)
    throw new AnnotationError(
      "BAD_REQUEST",
      "The next state is empty: write what the environment would show next",
    );
  if (!isCorrected(storedOf(next, model)))
    throw new AnnotationError(
      "BAD_REQUEST",
      "The correction is the same as the model's prediction (reasoning, next state, reward and end): accept it instead",
    );
  return next;
}

/** Reads a stored diff back; rows written before diffs were kept have none. */
export function readDiff(value: unknown): EventDiff | null {
  if (!value || typeof value !== "object" || !("status" in value) || !("fields" in value)) return null;
  return value as EventDiff;
}
