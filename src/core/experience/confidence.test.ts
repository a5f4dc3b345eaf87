import { describe, expect, it } from "vitest";
import type { Demonstration } from "../replay/buffer";
import { combine, demonstrationConfidence, outcomeAgreement } from "./confidence";

const demo = (over: Partial<Demonstration>): Demonstration => ({
  id: "d",
  domain: "household",
  instruction: "put a mug in the cabinet",
  source: "offline",
  taskId: "t",
  score: 0.9,
  state: { text: "You see a mug." },
  action: "take mug 1 from countertop 1",
  next: { text: "You pick up the mug 1." },
  reward: 0,
  done: false,
  success: false,
  valid: true,
  ...over,
});

describe("confidence", () => {
  it("is the geometric mean of its parts, so one weak part pulls it down", () => {
    expect(combine({ a: 1, b: 1 }).value).toBe(1);
    expect(combine({ a: 0.25, b: 1 }).value).toBe(0.5);
    expect(combine({ a: 0, b: 1 }).value).toBeLessThan(0.01);
    expect(combine({ a: 1.7, b: -1 }).parts).toEqual({ a: 1, b: 0 });
  });

  it("counts the same kind of demonstrations agreeing on the outcome: unanimous 1, an even split 0", () => {
    const take = "take knife 1 from drawer 2";
    expect(outcomeAgreement(take, [demo({}), demo({})])).toBe(1);
    expect(outcomeAgreement(take, [demo({}), demo({ done: true, reward: 1 })])).toBe(0);
    expect(outcomeAgreement(take, [demo({}), demo({}), demo({}), demo({ valid: false })])).toBe(0.5);
    // Demonstrations of other kinds of action say nothing either way.
    expect(outcomeAgreement(take, [demo({ action: "open drawer 2" })])).toBe(0.5);
  });

  it("is 0 with nothing retrieved, and follows how familiar the best demonstration is", () => {
    expect(demonstrationConfidence("look", []).value).toBe(0);
    const near = demonstrationConfidence("take mug 1 from countertop 1", [demo({ score: 0.95 })]);
    const far = demonstrationConfidence("take mug 1 from countertop 1", [demo({ score: 0.2 })]);
    expect(near.parts.familiarity).toBe(0.95);
    expect(near.value).toBeGreaterThan(far.value);
  });
});
