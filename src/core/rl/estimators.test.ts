import { describe, expect, it } from "vitest";
import type { Decision, DecisionEpisode } from "../policy/decision";
import { LinearValue } from "../policy/value";
import { grpoAdvantages } from "./advantages";
import { ADVANTAGE_ESTIMATORS } from "./estimators";
import { gae } from "./gae";

const decision = (value?: number): Decision => ({
  rows: { offsets: new Int32Array([0]), codes: new Int32Array(0) } as unknown as Decision["rows"],
  actions: [],
  chosen: 0,
  logprob: 0,
  state: new Int32Array([1]),
  step: 0,
  ...(value === undefined ? {} : { value }),
});
const episode = (rewards: number[], values: (number | undefined)[] = []): DecisionEpisode => ({
  decisions: rewards.map((_, t) => decision(values[t])),
  rewards,
  totalReward: rewards.reduce((a, b) => a + b, 0),
});

describe("advantage estimators", () => {
  it("outcome estimators give every decision of an episode its episode's group advantage", () => {
    const groups = [
      [episode([0, 1]), episode([0, 0, 0])],
      [episode([1]), episode([1])],
    ];
    const grpo = ADVANTAGE_ESTIMATORS.grpo({ advantageEpsilon: 1e-6 })(groups);
    const [[up, down]] = grpoAdvantages([[1, 0]]) as [[number, number]];
    expect(grpo).toEqual([
      [{ advantages: [up, up] }, { advantages: [down, down, down] }],
      [{ advantages: [0] }, { advantages: [0] }],
    ]);
    expect(ADVANTAGE_ESTIMATORS["dr-grpo"]()(groups)[0]).toEqual([
      { advantages: [0.5, 0.5] },
      { advantages: [-0.5, -0.5, -0.5] },
    ]);
  });

  it("gae runs GAE per episode on the recorded values, predicting those not recorded", () => {
    const critic = new LinearValue(2);
    critic.weights[1] = 0.25;
    const [[estimate]] = ADVANTAGE_ESTIMATORS.gae({ gamma: 0.9, gaeLambda: 0.8, critic })([
      [episode([0, 0, 1], [0.5, undefined, 0.7])],
    ]) as [[ReturnType<ReturnType<typeof ADVANTAGE_ESTIMATORS.gae>>[0][0]]];
    const expected = gae([0, 0, 1], [0.5, 0.25, 0.7], [false, false, true], 0.9, 0.8, 0);
    expect(estimate).toEqual({
      advantages: expected.advantages,
      values: [0.5, 0.25, 0.7],
      returns: expected.returns,
    });
  });
});
