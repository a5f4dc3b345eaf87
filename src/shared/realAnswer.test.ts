import { describe, expect, it } from "vitest";
import { realAnswerOf, verdictOf } from "./realAnswer";

const step = {
  nextState: "Red Mug [SEP] $12.00",
  reward: 0,
  done: false,
  valid: true,
  realNextState: null,
  realReward: null,
  realDone: null,
  realValid: null,
};

describe("the real answer of a step", () => {
  it("is absent for steps the real environment never answered", () => {
    expect(realAnswerOf(step)).toBeNull();
    expect(verdictOf(step)).toBeNull();
  });

  it("judges state and reward the way the fidelity figures do", () => {
    const same = {
      ...step,
      realNextState: "red mug [SEP] $12.00 ",
      realReward: 0.05,
      realDone: false,
      realValid: true,
    };
    expect(verdictOf(same)).toEqual({ state: false, reward: false, done: false, valid: false, any: false });
    const wrong = { ...same, realNextState: "Blue Mug [SEP] $12.00", realReward: 1, realDone: true };
    expect(verdictOf(wrong)).toEqual({ state: true, reward: true, done: true, valid: false, any: true });
  });
});
