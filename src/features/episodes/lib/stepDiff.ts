import type { DiffSegment } from "@/features/shared/lib/diffSides";
import { type DiffGranularity, diffText } from "@/features/shared/lib/textDiff";

export type { DiffSegment };

export interface StepDiff {
  /** The prediction, with what the real environment did not say marked. */
  predicted: DiffSegment[];
  /** The real answer, with what the prediction missed marked. */
  real: DiffSegment[];
  identical: boolean;
  /** "word", or "line" (then "whole") when the pair differs over too much text to compare word by word at once. */
  granularity: DiffGranularity;
}

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
  const { left, right, granularity } = diffText(predicted, real, tokens);
  return { predicted: left, real: right, identical: false, granularity };
}
