import { describe, expect, it } from "vitest";
import { divergence, sameChoices } from "./divergence";

const answer = (text: string, extra: Partial<Parameters<typeof divergence>[0]> = {}) => ({
  text,
  reward: 0,
  done: false,
  valid: true,
  ...extra,
});

describe("a divergence is a difference that matters", () => {
  it("ignores case, spacing and the order of unchanged elements, in any domain's writing", () => {
    expect(
      divergence(answer("Results [SEP] Red Mug [SEP] $12.00"), answer("results  [SEP] $12.00 [SEP] red mug"))
        .any,
    ).toBe(false);
    expect(
      divergence(
        answer("On the desk 1, you see a mug 1, and a pen 2."),
        answer("On the desk 1, you see a pen 2, a mug 1."),
      ).any,
    ).toBe(false);
  });

  it("counts an element added, lost or changed", () => {
    expect(divergence(answer("Red Mug [SEP] $12.00"), answer("Red Mug [SEP] $13.00"))).toMatchObject({
      elements: true,
      choices: false,
      any: true,
    });
    expect(
      divergence(answer("On the desk 1, you see a mug 1."), answer("On the desk 1, you see nothing."))
        .elements,
    ).toBe(true);
  });

  it("counts a choice offered on something the real page does not show, and not choices the text cannot tell", () => {
    const predicted = answer("You see a mug 1, and a pen 2.", {
      actions: ["take mug 1", "take pen 2", "look", "search[...]"],
    });
    expect(sameChoices(predicted, answer("You see a pen 2."))).toBe(false);
    expect(sameChoices(predicted, answer("You see a pen 2, and a mug 1."))).toBe(true);
    // A fixed button the page text never names cannot be told apart.
    expect(sameChoices(answer("Red Mug", { actions: ["click[buy now]"] }), answer("Red Mug"))).toBe(true);
    // Both lists known: compared as sets.
    expect(sameChoices(answer("a", { actions: ["go north"] }), answer("a", { actions: ["Go  North"] }))).toBe(
      true,
    );
    expect(sameChoices(answer("a", { actions: ["go north"] }), answer("a", { actions: ["go south"] }))).toBe(
      false,
    );
  });

  it("counts the reward beyond the fidelity tolerance, the end and validity, each apart", () => {
    expect(divergence(answer("x", { reward: 0.05 }), answer("x"))).toMatchObject({
      reward: false,
      any: false,
    });
    expect(divergence(answer("x", { reward: 1 }), answer("x"))).toMatchObject({
      reward: true,
      elements: false,
    });
    expect(divergence(answer("x", { done: true }), answer("x"))).toMatchObject({ end: true, reward: false });
    expect(divergence(answer("x", { valid: false }), answer("x"))).toMatchObject({
      validity: true,
      end: false,
    });
  });
});
