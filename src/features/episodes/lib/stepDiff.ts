import { diffArrays, diffLines } from "diff";
import { type DiffSegment, diffSides } from "@/features/shared/lib/diffSides";

export type { DiffSegment };

export interface StepDiff {
  /** The prediction, with what the real environment did not say marked. */
  predicted: DiffSegment[];
  /** The real answer, with what the prediction missed marked. */
  real: DiffSegment[];
  identical: boolean;
  /** "word", or "line" when a word diff would take too long on a long, very different pair. */
  granularity: "word" | "line" | "whole";
}

/** Beyond this a word diff is given up for a line diff: the step view must stay instant. */
const WORD_DIFF_TIMEOUT_MS = 40;

/** Whitespace-separated words with the whitespace kept, so "$12.00" or "[SEP]" change as one piece. */
function tokens(text: string): string[] {
  return text.match(/\s+|\S+/g) ?? [];
}

/**
 * Word-level differences between an experience model's predicted next state and the real environment's. States
 * are compact text ([SEP]-joined page fields, room descriptions) that often fit on one line, so words, not lines,
 * are the unit that shows an invented product or a wrong price.
 */
export function diffStates(predicted: string, real: string): StepDiff {
  if (predicted === real) {
    return {
      predicted: [{ text: predicted, changed: false }],
      real: [{ text: real, changed: false }],
      identical: true,
      granularity: "word",
    };
  }
  const byWord = diffArrays(tokens(predicted), tokens(real), { timeout: WORD_DIFF_TIMEOUT_MS });
  const changes =
    byWord?.map((c) => ({ ...c, value: c.value.join("") })) ??
    diffLines(predicted, real, { timeout: WORD_DIFF_TIMEOUT_MS });
  if (!changes) {
    return {
      predicted: [{ text: predicted, changed: true }],
      real: [{ text: real, changed: true }],
      identical: false,
      granularity: "whole",
    };
  }
  const { left, right } = diffSides(changes);
  return { predicted: left, real: right, identical: false, granularity: byWord ? "word" : "line" };
}
