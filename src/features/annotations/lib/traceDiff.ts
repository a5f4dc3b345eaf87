import { diffWordsWithSpace } from "diff";
import { type DiffSegment, diffSides } from "@/features/shared/lib/diffSides";

export type TraceSegment = DiffSegment;

export interface TraceDiff {
  /** The teacher's trace, with what the correction took out marked. */
  original: TraceSegment[];
  /** The correction, with what it put in marked. */
  corrected: TraceSegment[];
  identical: boolean;
  /** Words taken out and put in, for a one-line summary. */
  removedWords: number;
  addedWords: number;
}

/** Beyond this a word diff is given up and both sides are marked whole: typing in the editor must stay instant. */
const TIMEOUT_MS = 40;

const words = (text: string) => text.match(/\S+/g)?.length ?? 0;

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
  const changes = diffWordsWithSpace(original, corrected, { timeout: TIMEOUT_MS });
  if (!changes) {
    return {
      original: [{ text: original, changed: true }],
      corrected: [{ text: corrected, changed: true }],
      identical: false,
      removedWords: words(original),
      addedWords: words(corrected),
    };
  }
  const { left, right } = diffSides(changes);
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
