import { describe, expect, it } from "vitest";
import { Rng } from "../util/random";
import type { CandidateRows } from "./features";
import { addFeatureGradient, candidateLogprobs, entropyOf, scoreCoefficients } from "./linear";

/** Random sparse rows over a small weight vector, with repeated and negative-signed features. */
function randomRows(rng: Rng, candidates: number, perCandidate: number, dimension: number): CandidateRows {
  const codes: number[] = [];
  const offsets = [0];
  for (let i = 0; i < candidates; i++) {
    for (let k = 0; k < perCandidate; k++) {
      const index = rng.int(0, dimension - 1);
      codes.push(rng.chance(0.5) ? index : ~index);
    }
    offsets.push(codes.length);
  }
  return { offsets: Int32Array.from(offsets), codes: Int32Array.from(codes) };
}

describe("linear softmax gradient", () => {
  it("matches finite differences of a*log pi(c) + b*H at temperature 0.7", () => {
    const rng = new Rng(7);
    const dimension = 32;
    const weights = Float32Array.from({ length: dimension }, () => rng.normal() * 0.5);
    const rows = randomRows(rng, 5, 6, dimension);
    const [a, b, chosen, T] = [1.3, -0.4, 2, 0.7];
    const loss = (w: Float32Array) => {
      const lp = candidateLogprobs(w, rows, T);
      return a * (lp[chosen] as number) + b * entropyOf(lp);
    };
    const grad = new Float64Array(dimension);
    addFeatureGradient(grad, rows, scoreCoefficients(candidateLogprobs(weights, rows, T), chosen, a, b, T));
    const h = 1e-2;
    for (let i = 0; i < dimension; i++) {
      const plus = weights.slice();
      const minus = weights.slice();
      plus[i] = (plus[i] as number) + h;
      minus[i] = (minus[i] as number) - h;
      const numeric = (loss(plus) - loss(minus)) / (2 * h);
      expect(grad[i]).toBeCloseTo(numeric, 3);
    }
  });

  it("log-probabilities normalise and respect the temperature", () => {
    const rng = new Rng(3);
    const weights = Float32Array.from({ length: 16 }, () => rng.normal());
    const rows = randomRows(rng, 4, 3, 16);
    for (const T of [0.5, 1, 2]) {
      const total = candidateLogprobs(weights, rows, T).reduce((s, lp) => s + Math.exp(lp), 0);
      expect(total).toBeCloseTo(1, 12);
    }
    expect(entropyOf(candidateLogprobs(weights, rows, 4))).toBeGreaterThan(
      entropyOf(candidateLogprobs(weights, rows, 0.25)),
    );
  });
});
