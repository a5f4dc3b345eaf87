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

/** torch.optim.Adam's loop over every weight, as the optimizer was first written: the reference for the sparse one. */
function denseReference(params: Float32Array[], grads: Float64Array[][], lr: number, maxGradNorm: number) {
  const m = params.map((p) => new Float64Array(p.length));
  const v = params.map((p) => new Float64Array(p.length));
  grads.forEach((stepGrads, t0) => {
    let squares = 0;
    for (const g of stepGrads) for (const x of g) squares += x * x;
    const norm = Math.sqrt(squares);
    const scale = norm > maxGradNorm ? maxGradNorm / (norm + 1e-6) : 1;
    const t = t0 + 1;
    const stepSize = lr / (1 - 0.9 ** t);
    const sqrtC2 = Math.sqrt(1 - 0.999 ** t);
    params.forEach((p, k) => {
      for (let i = 0; i < p.length; i++) {
        const gi = stepGrads[k]![i]! * scale;
        const mi = 0.9 * m[k]![i]! + 0.1 * gi;
        const vi = 0.999 * v[k]![i]! + 0.001 * gi * gi;
        m[k]![i] = mi;
        v[k]![i] = vi;
        if (mi !== 0) p[i] = p[i]! - (stepSize * mi) / (Math.sqrt(vi) / sqrtC2 + 1e-5);
      }
    });
  });
}

describe("Adam over the weights that ever had a gradient", () => {
  it("gives the dense loop's weights bit for bit, across a snapshot and restore", () => {
    const sizes = [4096, 300];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Sparse gradients on a drifting set of weights, some steps with none at all.
    const grads = Array.from({ length: 40 }, (_, t) =>
      sizes.map((n) => {
        const g = new Float64Array(n);
        if (t % 9 === 4) return g;
        for (let j = 0; j < 12; j++) g[Math.floor(random() * n)] = random() * 4 - 2;
        return g;
      }),
    );
    const expected = sizes.map((n) => new Float32Array(n));
    denseReference(expected, grads, 0.05, 1);

    let adam = new Adam(
      sizes.map((n) => new Float32Array(n)),
      { learningRate: 0.05, maxGradNorm: 1 },
    );
    grads.forEach((stepGrads, t) => {
      if (t === 20) {
        const resumed = new Adam(
          adam.params.map((p) => Float32Array.from(p)),
          { learningRate: 0.05, maxGradNorm: 1 },
        );
        resumed.restore(JSON.parse(JSON.stringify(adam.snapshot())));
        adam = resumed;
      }
      adam.zeroGrad();
      stepGrads.forEach((g, k) => {
        adam.grads[k]!.set(g);
      });
      adam.step();
    });
    adam.params.forEach((p, k) => {
      expect(Array.from(p)).toEqual(Array.from(expected[k]!));
    });
  });

  it("gives the same weights when callers say what they touched, even weights they left at 0", () => {
    const n = 2048;
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const scanned = new Adam([new Float32Array(n)], { learningRate: 0.05, maxGradNorm: 1 });
    const told = new Adam([new Float32Array(n)], { learningRate: 0.05, maxGradNorm: 1 });
    for (let t = 0; t < 30; t++) {
      // Feature codes as packed rows hold them: ~i for a negative feature.
      const codes = Int32Array.from({ length: 10 }, () => {
        const i = Math.floor(random() * n);
        return random() < 0.5 ? i : ~i;
      });
      const values = Array.from(codes, () => (random() < 0.3 ? 0 : random() * 2 - 1));
      for (const adam of [scanned, told]) {
        adam.zeroGrad();
        codes.forEach((code, j) => {
          const g = adam.grads[0]!;
          if (code >= 0) g[code] = g[code]! + values[j]!;
          else g[~code] = g[~code]! - values[j]!;
        });
      }
      told.touch(0, codes);
      expect(told.step()).toBe(scanned.step());
      if (t === 15) expect(told.snapshot()).toEqual(scanned.snapshot());
    }
    expect(Array.from(told.params[0]!)).toEqual(Array.from(scanned.params[0]!));
  });
});
