import { describe, expect, it } from "vitest";
import { FeatureCounts } from "./featureCounts";

/** What the table must agree with: a Map's counts, in its insertion order. */
function asMap(counts: FeatureCounts): [number, number][] {
  return Array.from({ length: counts.size }, (_, e) => [counts.keys[e]!, counts.counts[e]!]);
}

describe("FeatureCounts", () => {
  it("counts keys in insertion order, as a Map does, across growth and clears", () => {
    const counts = new FeatureCounts();
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (const n of [10, 3_000, 0, 200]) {
      counts.clear();
      const expected = new Map<number, number>();
      // Keys across the whole uint32 range, including 0 and 2^32 - 1, with repeats.
      const pool = Array.from({ length: Math.max(1, n) }, (_, i) =>
        i === 0 ? 0 : i === 1 ? 0xffffffff : next(),
      );
      for (let i = 0; i < n * 3; i++) {
        const key = pool[next() % pool.length]!;
        counts.bump(key);
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      expect(asMap(counts)).toEqual([...expected]);
    }
  });
});
