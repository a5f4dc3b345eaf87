import { diff } from "fast-myers-diff";
import type { Observation } from "../../types";

/**
 * Actions that change a page in place (choosing an option adds "Selected: color: red" to the item page) are best
 * predicted as the analogue's edit applied to the current page, rather than as the analogue's page: the rest of
 * the analogue's page describes another item. The edit is found by diffing the analogue's page before and after
 * at the level of page elements, and is re-applied next to the same neighbouring element here.
 */

const SEGMENT = /\s*\[SEP\]\s*/;
/** Share of words that must survive the action for it to count as an edit of the page, not a new page. */
const IN_PLACE = 0.8;

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

/** The index of `segment` in `parts`, else of the part most like it (at least half its words shared), else −1. */
function closest(parts: string[], segment: string): number {
  const exact = parts.indexOf(segment);
  if (exact >= 0) return exact;
  const words = wordSet(segment);
  let best = -1;
  let bestSimilarity = 0.5;
  parts.forEach((part, i) => {
    const other = wordSet(part);
    let shared = 0;
    for (const w of words) if (other.has(w)) shared++;
    const similarity = shared / (words.size + other.size - shared || 1);
    if (similarity >= bestSimilarity) {
      best = i;
      bestSimilarity = similarity;
    }
  });
  return best;
}

export function editsInPlace(before: Observation, after: Observation): boolean {
  if (!before.text.includes("[SEP]") || before.text === after.text) return false;
  const a = wordSet(before.text);
  const b = wordSet(after.text);
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / Math.max(a.size, b.size, 1) >= IN_PLACE;
}

/**
 * The analogue's edit (its page before → after) applied to `current`, each inserted element rewritten by
 * `rewrite`; undefined when an edit cannot be placed (neither of its neighbours is on the current page).
 */
export function transferEdit(
  before: string,
  after: string,
  current: string,
  rewrite: (segment: string) => string,
): string | undefined {
  const from = before.split(SEGMENT);
  const to = after.split(SEGMENT);
  const out = current.split(SEGMENT);
  // Each change replaces from[sx, ex) by to[sy, ey).
  for (const [sx, ex, sy, ey] of diff(from, to)) {
    // A removed element goes here too: the same one, or the one most like it (a replaced selection).
    for (const segment of from.slice(sx, ex)) {
      const at = closest(out, rewrite(segment));
      if (at >= 0) out.splice(at, 1);
    }
    if (ey === sy) continue;
    const inserted = to.slice(sy, ey).map(rewrite);
    const left = sx > 0 ? out.indexOf(from[sx - 1]!) : -1;
    const right = ex < from.length ? out.indexOf(from[ex]!) : -1;
    if (left >= 0) out.splice(left + 1, 0, ...inserted);
    else if (right >= 0) out.splice(right, 0, ...inserted);
    else return undefined;
  }
  return out.join(" [SEP] ");
}
