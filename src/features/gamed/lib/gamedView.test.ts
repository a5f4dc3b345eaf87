import { describe, expect, it } from "vitest";
import { openHref, reasonsOf, signed, stepHref } from "./gamedView";

const parting = { index: 3, elements: true, choices: false, reward: false, end: true, validity: false };

describe("where the model is gamed, on screen", () => {
  it("links to the step view at the parting step, with the run's synthetic episodes to move through", () => {
    expect(stepHref({ id: "t1", runId: "r1" }, 3)).toBe("/trajectories/t1?source=synthetic&run=r1&step=4");
    expect(openHref({ id: "t1", runId: "r1", parting })).toBe(
      "/trajectories/t1?source=synthetic&run=r1&step=4",
    );
    // An episode that never parts opens at its start.
    expect(openHref({ id: "t1", runId: null, parting: null })).toBe(
      "/trajectories/t1?source=synthetic&step=1",
    );
  });

  it("lists the reasons in the step view's order, and signs the excess", () => {
    expect(reasonsOf(parting)).toEqual(["elements", "end"]);
    expect(reasonsOf(null)).toEqual([]);
    expect(signed(0.5, String)).toBe("+0.5");
    expect(signed(-0.5, String)).toBe("-0.5");
    expect(signed(0, String)).toBe("0");
  });
});
