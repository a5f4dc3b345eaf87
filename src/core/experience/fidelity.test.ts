import { describe, expect, it } from "vitest";
import {
  aggregate,
  confidenceAuroc,
  elements,
  exactMatch,
  hallucinatedElements,
  isWrong,
  scoreTransition,
  tokenF1,
} from "./fidelity";

const inputs = {
  instruction: "put a clean apple in fridge",
  state: "You arrive at countertop 1.",
  action: "go to fridge 1",
  history: [],
};

describe("fidelity metrics", () => {
  it("token F1 on hand cases", () => {
    expect(tokenF1("a b c", "a b c")).toBe(1);
    expect(tokenF1("a b", "a b c d")).toBeCloseTo((2 * 1 * 0.5) / 1.5);
    expect(tokenF1("a a a", "a")).toBeCloseTo((2 * (1 / 3) * 1) / (1 / 3 + 1));
    expect(tokenF1("x", "y")).toBe(0);
    expect(tokenF1("", "")).toBe(1);
  });

  it("exact match ignores case and spacing but not content", () => {
    expect(exactMatch("The fridge 1 is  closed.", "the fridge 1 is closed")).toBe(true);
    expect(exactMatch("The fridge 1 is open.", "The fridge 1 is closed.")).toBe(false);
  });

  it("splits pages and room descriptions into elements", () => {
    expect(elements("Back to Search [SEP] Page 1 [SEP] $12.50")).toEqual([
      "back to search",
      "page 1",
      "$12.50",
    ]);
    expect(elements("On the desk 1, you see a mug 1, and a pen 2.")).toEqual([
      "on desk 1",
      "you see mug 1",
      "pen 2",
    ]);
  });

  it("counts as hallucinated only what is in neither the real next state nor the inputs", () => {
    const real = "You arrive at fridge 1. The fridge 1 is closed.";
    expect(hallucinatedElements("You arrive at fridge 1. The fridge 1 is closed.", real, inputs)).toEqual([]);
    expect(
      hallucinatedElements("You arrive at fridge 1. On the fridge 1, you see a tomato 3.", real, inputs),
    ).toEqual(["on fridge 1", "you see tomato 3"]);
    // "countertop 1" is in the state the model was given: not invented.
    expect(hallucinatedElements("You arrive at countertop 1.", real, inputs)).toEqual([]);
  });

  it("aggregates rates over transitions", () => {
    const real = { next: { text: "Alpha. Beta." }, reward: 1, done: true, valid: true };
    const good = scoreTransition(
      { next: { text: "Alpha. Beta." }, reward: 0.95, done: true, valid: true, latencyMs: 2 },
      real,
      inputs,
    );
    const bad = scoreTransition(
      { next: { text: "Alpha. Zebra." }, reward: 0, done: false, valid: false, latencyMs: 4 },
      real,
      inputs,
    );
    const report = aggregate([good, bad]);
    expect(report).toMatchObject({
      transitions: 2,
      exactMatch: 0.5,
      rewardAccuracy: 0.5,
      doneAccuracy: 0.5,
      invalidActionAgreement: 0.5,
      hallucinationRate: 0.25, // 1 of 4 predicted elements
      latencyMsMean: 3,
    });
    expect(report.rewardMAE).toBeCloseTo(0.525);
  });

  it("measures how well confidence tells right predictions from wrong ones (AUROC)", () => {
    const real = { next: { text: "Alpha. Beta." }, reward: 1, done: true, valid: true };
    const score = (right: boolean, confidence: number) =>
      scoreTransition(
        right
          ? { next: { text: "Alpha. Beta." }, reward: 1, done: true, valid: true, latencyMs: 1, confidence }
          : { next: { text: "Alpha. Zebra." }, reward: 1, done: true, valid: true, latencyMs: 1, confidence },
        real,
        inputs,
      );
    expect(isWrong(score(false, 0.5))).toBe(true);
    expect(isWrong(score(true, 0.5))).toBe(false);
    // Every right prediction more confident than every wrong one: 1. Reversed: 0. All equal: 0.5 (ties half).
    expect(confidenceAuroc([score(true, 0.9), score(true, 0.8), score(false, 0.3)])).toBe(1);
    expect(confidenceAuroc([score(true, 0.1), score(false, 0.8)])).toBe(0);
    expect(confidenceAuroc([score(true, 0.5), score(false, 0.5)])).toBe(0.5);
    // One of the two right ones above the wrong one: 0.5.
    expect(confidenceAuroc([score(true, 0.9), score(true, 0.1), score(false, 0.5)])).toBe(0.5);
    expect(confidenceAuroc([score(true, 0.9)])).toBeNull();
    const report = aggregate([score(true, 0.9), score(false, 0.3)]);
    expect(report).toMatchObject({ confidenceAuroc: 1, confidenceRight: 0.9, confidenceWrong: 0.3 });
  });
  it("scores the verdicts of success: how many predicted successes were real, how many real ones were predicted", () => {
    const ending = (predicted: boolean, real: boolean) =>
      scoreTransition(
        { next: { text: "Done." }, reward: 1, done: true, valid: true, latencyMs: 1, success: predicted },
        { next: { text: "Done." }, reward: real ? 1 : 0.5, done: true, valid: true, success: real },
        inputs,
      );
    // Three predicted successes, one of them not real; two real ones, both predicted; one right failure.
    const report = aggregate([
      ending(true, true),
      ending(true, true),
      ending(true, false),
      ending(false, false),
    ]);
    expect(report.successPrecision).toBeCloseTo(2 / 3, 4);
    expect(report.successRecall).toBe(1);
    // A missed success lowers recall only.
    expect(aggregate([ending(false, true), ending(true, true)])).toMatchObject({
      successPrecision: 1,
      successRecall: 0.5,
    });
    // Without both verdicts there is nothing to score (stored synthetic steps keep no real verdict).
    const unknown = scoreTransition(
      { next: { text: "Done." }, reward: 1, done: true, valid: true, latencyMs: 1, success: true },
      { next: { text: "Done." }, reward: 1, done: true, valid: true },
      inputs,
    );
    expect(unknown.success).toBeUndefined();
    expect(aggregate([unknown])).toMatchObject({ successPrecision: null, successRecall: null });
  });
});
