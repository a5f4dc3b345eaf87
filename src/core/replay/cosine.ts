import type { Transition } from "../types";
import type { Demonstration } from "./buffer";

/** Cosine similarity; 0 when either vector is zero (no direction, so no similarity). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`cosine: dimensions differ (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Best first; equal scores by what the demonstration says (task, instruction, state, action, next state, reward),
 * and only then by id. Ids are random database keys: ordering ties by id alone made a run's results depend on which
 * database its offline data was collected into. Two ties that differ only in id are the same demonstration.
 */
export function byScoreThenContent(a: Demonstration, b: Demonstration): number {
  return byScoreThenContentOf(a.score, a, b.score, b);
}

/** byScoreThenContent of a transition scored `aScore` and one scored `bScore`, before either is a demonstration. */
export function byScoreThenContentOf(aScore: number, a: Transition, bScore: number, b: Transition): number {
  return (
    bScore - aScore ||
    order(a.taskId ?? "", b.taskId ?? "") ||
    order(a.instruction, b.instruction) ||
    order(a.state.text, b.state.text) ||
    order(a.action, b.action) ||
    order(a.next.text, b.next.text) ||
    a.reward - b.reward ||
    order(a.id, b.id)
  );
}
