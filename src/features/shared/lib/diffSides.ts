import { diff } from "fast-myers-diff";

/** A run of text on one side of a two-sided diff; `changed` marks what the other side does not have. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

export interface DiffSides {
  left: DiffSegment[];
  right: DiffSegment[];
}

/** Adds text to a side, joined to the last segment when that is of the same kind: runs alternate. */
function append(side: DiffSegment[], text: string, changed: boolean) {
  if (text === "") return;
  const last = side.at(-1);
  if (last && last.changed === changed) last.text += text;
  else side.push({ text, changed });
}

/**
 * Two token lists side by side, as a minimal (Myers) diff pairs them: fast-myers-diff yields each change as
 * [sx, ex, sy, ey] (xs[sx..ex) replaced by ys[sy..ey)); those runs are marked, removed on the left and added on the
 * right, and the tokens between them are kept on both sides. Each side's segments join back into its text.
 */
export function diffSides(xs: readonly string[], ys: readonly string[]): DiffSides {
  const left: DiffSegment[] = [];
  const right: DiffSegment[] = [];
  let x = 0;
  for (const [sx, ex, sy, ey] of diff(xs, ys)) {
    const same = xs.slice(x, sx).join("");
    append(left, same, false);
    append(right, same, false);
    append(left, xs.slice(sx, ex).join(""), true);
    append(right, ys.slice(sy, ey).join(""), true);
    x = ex;
  }
  const rest = xs.slice(x).join("");
  append(left, rest, false);
  append(right, rest, false);
  return { left, right };
}
