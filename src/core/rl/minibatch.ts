import type { Rng } from "../util/random";

/**
 * A fresh random split of `count` items into `minibatches` nearly equal parts, as CleanRL's
 * np.random.shuffle(b_inds) then slicing: every item is used once per epoch.
 */
export function minibatchIndices(count: number, minibatches: number, rng: Rng): number[][] {
  const order = rng.shuffle(Array.from({ length: count }, (_, i) => i));
  const parts = Math.max(1, Math.min(minibatches, count));
  const out: number[][] = [];
  for (let k = 0; k < parts; k++) {
    const start = Math.floor((k * count) / parts);
    const end = Math.floor(((k + 1) * count) / parts);
    out.push(order.slice(start, end));
  }
  return out.filter((mb) => mb.length > 0);
}
