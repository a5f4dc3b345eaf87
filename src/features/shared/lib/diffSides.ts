/** A run of text on one side of a two-sided diff; `changed` marks what the other side does not have. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

/** jsdiff's change list as the two texts side by side: removals marked on the left, additions on the right. */
export function diffSides(changes: ReadonlyArray<{ value: string; added?: boolean; removed?: boolean }>): {
  left: DiffSegment[];
  right: DiffSegment[];
} {
  const left: DiffSegment[] = [];
  const right: DiffSegment[] = [];
  for (const change of changes) {
    if (!change.added) left.push({ text: change.value, changed: change.removed === true });
    if (!change.removed) right.push({ text: change.value, changed: change.added === true });
  }
  return { left, right };
}
