import type { Observation } from "../../types";
import { literalPattern } from "../../util/regex";
import { actionTemplate } from "../admissible";
import { segmentsOf } from "../segments";

/**
 * What an action leaves as it was, learnt from the real transitions of the offline data: a labelled part of a page
 * ("holding: cup 1", "location: sofa 1") that a kind of action never changed. The model's next state keeps this
 * page's part where it does, whatever the analogue's page said: rewritten from a demonstration, walking to a table
 * left the agent holding the knife the demonstration's agent held (and offered to put it down).
 */

/** Transitions of a kind of action with the part on both pages before it counts as learnt. */
const MIN_TIMES = 20;
/** The share of those in which the part stayed as it was. */
const KEPT_SHARE = 0.99;

/** A part's label: a few words before a colon at its start ("[location: sofa 1" → "location"). */
const LABEL = /^[^a-z0-9]*([a-z][a-z ]{0,30}?)\s*:/i;

/**
 * A page's segments (segments.ts), each cut again at any mark standing alone between spaces: a status line of two
 * parts ("[location: sofa 1 | holding: nothing]") shows its mark once, too few for segments.ts to take it for the
 * page's separator.
 */
function parts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const segment of segmentsOf(text).flatMap((s) => s.split(/\s+[^\sa-z0-9]+\s+/i))) {
    const label = LABEL.exec(segment.trim())?.[1]?.toLowerCase();
    // A label twice on a page names no one part.
    if (label !== undefined) out.set(label, out.has(label) ? "" : segment.trim());
  }
  return out;
}

/** What a part says after its label, without the marks around it: "cup 1" of "holding: cup 1]". */
function partValue(part: string): string {
  return part
    .replace(LABEL, "")
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/gi, "")
    .trim()
    .toLowerCase();
}

/**
 * The actions a page offers once a part it keeps says `ours` where the analogue's said `theirs`: an action on
 * theirs acts on ours instead where this page acts on ours at all, and is no action where it does not (carrying
 * nothing, there is no "put knife 1 on the table").
 */
function offered(
  actions: readonly string[],
  theirs: string,
  ours: string,
  current: readonly string[],
): string[] {
  const acted = ours !== "" && current.some((a) => a.toLowerCase().includes(ours));
  return actions.flatMap((a) => {
    const lower = a.toLowerCase();
    if (theirs !== "" && theirs !== ours && lower.includes(theirs))
      return acted ? [a.replace(new RegExp(literalPattern(theirs), "i"), ours)] : [];
    return [a];
  });
}

export type FramesData = [key: string, counts: { times: number; kept: number }][];

export class FrameCounts {
  private readonly counts = new Map<string, { times: number; kept: number }>();

  learn(state: Observation, action: string, next: Observation): void {
    const kind = actionTemplate(action, state);
    const after = parts(next.text);
    for (const [label, before] of parts(state.text)) {
      const now = after.get(label);
      if (!before || now === undefined || !now) continue;
      const key = `${kind}\u0000${label}`;
      const c = this.counts.get(key) ?? { times: 0, kept: 0 };
      c.times++;
      if (now === before) c.kept++;
      this.counts.set(key, c);
    }
  }

  /**
   * The next state with every part this kind of action keeps taken from the state it was taken in. The actions it
   * offers that name what the analogue's part said are made to name what this page's part says, where this page
   * acts on that too, and are dropped where it does not (there is no "put knife 1" when holding nothing).
   */
  keep(state: Observation, action: string, next: Observation): Observation {
    const kind = actionTemplate(action, state);
    const after = parts(next.text);
    let text = next.text;
    let actions = next.actions;
    for (const [label, before] of parts(state.text)) {
      const predicted = after.get(label);
      if (!before || !predicted) continue;
      const c = this.counts.get(`${kind}\u0000${label}`);
      if (!c || c.times < MIN_TIMES || c.kept / c.times < KEPT_SHARE) continue;
      if (predicted !== before) text = text.replace(predicted, before);
      if (actions && state.actions)
        actions = offered(actions, partValue(predicted), partValue(before), state.actions);
    }
    if (text === next.text && actions === next.actions) return next;
    return { ...next, text, ...(actions ? { actions } : {}) };
  }

  toData(): FramesData {
    return [...this.counts];
  }

  static fromData(data: FramesData): FrameCounts {
    const frames = new FrameCounts();
    for (const [key, c] of data) frames.counts.set(key, { ...c });
    return frames;
  }
}
