import { describe, expect, it } from "vitest";
import { currentOf, draftOf, hasOutcomeCorrection, parseReward } from "./prediction";

const item = {
  teacherText: "The search shows mugs.",
  correction: null,
  correctedNextState: "[Results] red mug",
  correctedReward: null,
  correctedDone: true,
  step: { nextState: "[Results] blue mug", reward: 0, done: false },
} as unknown as Parameters<typeof currentOf>[0];

describe("the prediction an annotator corrects", () => {
  it("reads each corrected field in place of the model's, and the rest as the model said", () => {
    expect(currentOf(item)).toEqual({
      reasoning: "The search shows mugs.",
      nextState: "[Results] red mug",
      reward: 0,
      done: true,
    });
    expect(draftOf(item).reward).toBe("0");
    expect(hasOutcomeCorrection(item)).toBe(true);
    expect(hasOutcomeCorrection({ ...item, correctedNextState: null, correctedDone: null })).toBe(false);
  });

  it("takes a reward typed as a number, and says what is wrong with one that is not", () => {
    expect(parseReward(" 0.5 ")).toEqual({ ok: true, value: 0.5 });
    expect(parseReward("-1")).toEqual({ ok: true, value: -1 });
    expect(parseReward("")).toMatchObject({ ok: false });
    expect(parseReward("0.5x")).toEqual({
      ok: false,
      message: 'The reward "0.5x" is not a number: write it as 0, 1 or 0.5',
    });
  });
});
