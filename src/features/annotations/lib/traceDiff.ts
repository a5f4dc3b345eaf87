import type { DiffSegment } from "@/features/shared/lib/diffSides";
import { diffText } from "@/features/shared/lib/textDiff";

export type TraceSegment = DiffSegment;

export interface TraceDiff {
  /** The teacher's trace, with what the correction took out marked. */
  original: TraceSegment[];
  /** The correction, with what it put in marked. */
  corrected: TraceSegment[];
  identical: boolean;
  /** Words in the marked runs, for a one-line summary (whole lines, or whole texts, past the diff's size bounds). */
  removedWords: number;
  addedWords: number;
}

const words = (text: string) => text.match(/\S+/g)?.length ?? 0;

/**
 * Words, runs of whitespace and single punctuation marks, each a token: in prose "1." changing to "0." is the
 * number changing, not the sentence's full stop.
 */
function tokens(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/**
 * Word-level differences between a teacher's reasoning and an annotator's correction. Traces are prose, so words
 * (with their whitespace kept) are the unit that shows a changed claim, number or object.
 */
export function diffTrace(original: string, corrected: string): TraceDiff {
  if (original === corrected) {
    return {
      original: [{ text: original, changed: false }],
      corrected: [{ text: corrected, changed: false }],
      identical: true,
      removedWords: 0,
      addedWords: 0,
    };
  }
  const { left, right } = diffText(original, corrected, tokens);
  const count = (segments: DiffSegment[]) =>
    segments.reduce((n, s) => n + (s.changed ? words(s.text) : 0), 0);
  return {
    original: left,
    corrected: right,
    identical: false,
    removedWords: count(left),
    addedWords: count(right),
  };
}
