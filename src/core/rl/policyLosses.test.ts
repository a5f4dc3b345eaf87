import { describe, expect, it } from "vitest";
import { POLICY_LOSSES } from "./policyLosses";

const settings = { clipEpsilon: 0.2, clipEpsilonHigh: 0.28 };
const clipHigher = POLICY_LOSSES["clip-higher"](settings);
const clip = POLICY_LOSSES.clip(settings);
/** The loss at a ratio (old log-probability 0). */
const at = (loss: typeof clip, ratio: number, advantage: number) => loss(Math.log(ratio), 0, advantage);

describe("clip-higher (DAPO's asymmetric clip)", () => {
  it("clips a positive advantage above 1 + high only, a negative one below 1 - low only", () => {
    // Inside [1 - low, 1 + high]: the gradient acts, -A * ratio.
    expect(at(clipHigher, 1.25, 1)).toMatchObject({ clipped: false });
    expect(at(clipHigher, 1.25, 1).dLogprob).toBeCloseTo(-1.25, 12);
    // The symmetric clip has stopped at 1.2 already.
    expect(at(clip, 1.25, 1)).toMatchObject({ clipped: true, dLogprob: 0 });
    // Past 1 + high with A > 0: flat at the clipped objective.
    expect(at(clipHigher, 1.3, 1)).toMatchObject({ clipped: true, dLogprob: 0 });
    expect(at(clipHigher, 1.3, 1).loss).toBeCloseTo(-1.28, 12);
    // Below 1 - low with A < 0: flat at 0.8 * |A|.
    expect(at(clipHigher, 0.75, -1)).toMatchObject({ clipped: true, dLogprob: 0 });
    expect(at(clipHigher, 0.75, -1).loss).toBeCloseTo(0.8, 12);
    // Past a clip against the advantage's direction, min() keeps the unclipped, worse term: the gradient acts.
    expect(at(clipHigher, 0.7, 1).dLogprob).toBeCloseTo(-0.7, 12);
    expect(at(clipHigher, 1.3, -1).dLogprob).toBeCloseTo(1.3, 12);
  });

  it("has a zero gradient exactly where the ratio is past its own side's clip, for either sign", () => {
    for (let ratio = 0.5; ratio <= 1.6; ratio += 0.01) {
      for (const advantage of [2, -2]) {
        const outside = advantage > 0 ? ratio > 1.28 : ratio < 0.8;
        const term = at(clipHigher, ratio, advantage);
        expect(term.dLogprob === 0, `ratio ${ratio.toFixed(2)}, A ${advantage}`).toBe(outside);
        expect(term.clipped).toBe(outside);
      }
    }
  });

  it("with equal epsilons is the symmetric clip, bit for bit", () => {
    const same = POLICY_LOSSES["clip-higher"]({ clipEpsilon: 0.2, clipEpsilonHigh: 0.2 });
    for (const ratio of [0.5, 0.79, 0.81, 1, 1.19, 1.21, 1.5])
      for (const advantage of [1.5, -0.5])
        expect(at(same, ratio, advantage)).toEqual(at(clip, ratio, advantage));
  });
});
