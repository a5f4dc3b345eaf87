import { diff } from "fast-myers-diff";
import type { Observation } from "../../types";
import { elementsOf, joinLike, separatorOf } from "../segments";
import { choiceGroups } from "./evidence";

/**
 * Actions that change a page in place (choosing an option adds "Selected: color: red" to the item page) are best
 * predicted as the analogue's edit applied to the current page, rather than as the analogue's page: the rest of
 * the analogue's page describes another item. The edit is found by diffing the analogue's page before and after
 * at the level of page elements, and is re-applied next to the same neighbouring element here.
 */

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
  if (separatorOf(before.text) === undefined || before.text === after.text) return false;
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
  const from = elementsOf(before);
  const to = elementsOf(after);
  const out = elementsOf(current);
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
  return joinLike(current, out);
}

const ARGUMENT = /^\s*[a-z_]+\s*\[(.*)\]\s*$/i;

/** The choice an action makes on a page: the group of options whose button it presses, and the option. */
function choiceOf(page: Observation, action: string): { group: string; value: string } | undefined {
  const value = ARGUMENT.exec(action)?.[1]?.trim().toLowerCase();
  if (!value) return undefined;
  const buttons = new Set((page.actions ?? []).map((a) => (ARGUMENT.exec(a)?.[1] ?? a).trim().toLowerCase()));
  const segments = elementsOf(page.text).map((s) => s.trim().toLowerCase());
  // A group is named, not labelled: "Rating: 4.1" followed by the page's buttons is no group of options.
  const group = choiceGroups(segments, buttons).find(
    (g) => !g.name.includes(":") && g.options.includes(value),
  );
  return group ? { group: group.name, value } : undefined;
}

/**
 * The page after a choice (an option of a group pressed), where an example of a choice shows how the domain's pages
 * record one: its group and option appear in an element of its next page that its page did not have, after a label
 * ("Selected: size: large"). Here the record is the current page's, with this group set to this option (a group
 * chosen again changes its option in place, a new one is listed last), or a new record where the example's stood.
 * A choice is an edit of the current page, whatever the example's page held besides (its own earlier choices, another
 * item's options): copying the example's record brought those along. Undefined when the action is not a choice, or
 * the example does not show how one is recorded.
 */
export function choiceEdit(
  current: Observation,
  action: string,
  example: { state: Observation; action: string; next: Observation },
): string | undefined {
  const ours = choiceOf(current, action);
  const theirs = choiceOf(example.state, example.action);
  if (!ours || !theirs) return undefined;
  const before = new Set(elementsOf(example.state.text));
  const after = elementsOf(example.next.text);
  const at = after.findIndex(
    (s) => !before.has(s) && s.toLowerCase().includes(`${theirs.group}: ${theirs.value}`),
  );
  if (at < 0) return undefined;
  const record = after[at]!;
  // "Selected: color: black; size: large" is labelled "Selected:"; a bare "size: large" is not.
  const colon = record.indexOf(":");
  const label = record.toLowerCase().startsWith(`${theirs.group}:`) ? "" : record.slice(0, colon + 1);
  const parts = elementsOf(current.text);
  const existing = label ? parts.findIndex((s) => s.startsWith(label)) : -1;
  const choices = new Map<string, string>();
  for (const item of existing >= 0 ? parts[existing]!.slice(label.length).split(";") : []) {
    const colon = item.indexOf(":");
    if (colon > 0) choices.set(item.slice(0, colon).trim(), item.slice(colon + 1).trim());
  }
  choices.set(ours.group, ours.value);
  const rendered = `${label ? `${label} ` : ""}${[...choices].map(([g, v]) => `${g}: ${v}`).join("; ")}`;
  if (existing >= 0) {
    parts[existing] = rendered;
    return joinLike(current.text, parts);
  }
  const right = at + 1 < after.length ? parts.indexOf(after[at + 1]!) : -1;
  const left = at > 0 ? parts.indexOf(after[at - 1]!) : -1;
  if (right >= 0) parts.splice(right, 0, rendered);
  else if (left >= 0) parts.splice(left + 1, 0, rendered);
  else return undefined;
  return joinLike(current.text, parts);
}
