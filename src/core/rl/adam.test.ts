import { describe, expect, it } from "vitest";
import { Adam } from "./adam";

/** Fills a fixed sparse gradient, as a minibatch that touched a few hashed features would. */
function stepWith(adam: Adam, step: number): void {
  adam.zeroGrad();
  const g = adam.grads[0] as Float64Array;
  g[3] = 0.5 - step * 0.1;
  g[17] = -1 + step * 0.05;
  adam.step();
}

describe("Adam state", () => {
  it("a snapshot taken through JSON continues exactly as the original optimizer does", () => {
    const original = new Adam([new Float32Array(32)], { learningRate: 0.1 });
    for (let t = 0; t < 3; t++) stepWith(original, t);
    const saved = JSON.parse(JSON.stringify(original.snapshot()));
    expect(saved.t).toBe(3);

    const restored = new Adam([Float32Array.from(original.params[0] as Float32Array)], { learningRate: 0.1 });
    restored.restore(saved);
    const fresh = new Adam([Float32Array.from(original.params[0] as Float32Array)], { learningRate: 0.1 });
    for (let t = 3; t < 6; t++) {
      stepWith(original, t);
      stepWith(restored, t);
      stepWith(fresh, t);
    }
    expect(Array.from(restored.params[0] as Float32Array)).toEqual(
      Array.from(original.params[0] as Float32Array),
    );
    // Without the moments the same gradients move the weights elsewhere: the state is what makes resume exact.
    expect(Array.from(fresh.params[0] as Float32Array)).not.toEqual(
      Array.from(original.params[0] as Float32Array),
    );
  });

  it("refuses a state of another shape before changing anything", () => {
    const small = new Adam([new Float32Array(8)], { learningRate: 0.1 });
    stepWith(small, 0);
    const big = new Adam([new Float32Array(32)], { learningRate: 0.1 });
    stepWith(big, 0);
    const before = JSON.stringify(big.snapshot());
    expect(() => big.restore(small.snapshot())).toThrow(
      "optimizer state vector 0 has 8 weights, this one has 32",
    );
    expect(() => big.restore({ t: 1, moments: [] })).toThrow("optimizer state has 0 parameter vectors");
    expect(JSON.stringify(big.snapshot())).toBe(before);
  });
});
