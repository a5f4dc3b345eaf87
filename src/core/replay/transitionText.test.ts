import { describe, expect, it } from "vitest";
import { MAX_STATE_CHARS, splitTransitionText, transitionText } from "./transitionText";

describe("transitionText", () => {
  it("writes task, state and action, the action on the last line", () => {
    const text = transitionText({
      instruction: " find a mug ",
      state: "You see a mug 1.\nAnd a desk.",
      action: "take\nmug 1",
    });
    expect(text).toBe("task: find a mug\nstate: You see a mug 1.\nAnd a desk.\naction: take mug 1");
    expect(splitTransitionText(text)).toEqual({
      context: "task: find a mug\nstate: You see a mug 1.\nAnd a desk.",
      action: "take mug 1",
    });
  });

  it("leaves the task out when there is no instruction, and cuts long states", () => {
    const text = transitionText({ state: "x".repeat(MAX_STATE_CHARS + 100), action: "look" });
    expect(text.startsWith("state: xxx")).toBe(true);
    expect(text.length).toBe("state: ".length + MAX_STATE_CHARS + "\naction: look".length);
  });

  it("treats any other text (a free-text search) as one section", () => {
    expect(splitTransitionText("red lipstick\naction: buy")).toBeUndefined();
    expect(splitTransitionText("state: no action line")).toBeUndefined();
  });
});
