import { diffWordsWithSpace } from "diff";

/** A run of text on one side; `changed` marks words the other side does not have. */
export interface TraceSegment {
  text: string;
  changed: boolean;
}

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
  const diff: TraceDiff = { original: [], corrected: [], identical: false, removedWords: 0, addedWords: 0 };
  for (const change of changes) {
    if (!change.added) diff.original.push({ text: change.value, changed: change.removed });
    if (!change.removed) diff.corrected.push({ text: change.value, changed: change.added });
    if (change.removed) diff.removedWords += words(change.value);
    if (change.added) diff.addedWords += words(change.value);
  }
  return diff;
}
