import { describe, expect, it } from "vitest";
import { analogy, applySubstitutions } from "./analogy";

describe("analogy", () => {
  it("rewrites a demonstration's outcome for another receptacle", () => {
    const a = analogy(
      { state: "You arrive at cabinet 2. The cabinet 2 is closed.", action: "open cabinet 2" },
      { state: "You arrive at drawer 1. The drawer 1 is closed.", action: "open drawer 1" },
    );
    const out = applySubstitutions(
      "You open the cabinet 2. The cabinet 2 is open. In it, you see nothing.",
      a.substitutions,
    );
    expect(out.text).toBe("You open the drawer 1. The drawer 1 is open. In it, you see nothing.");
    expect(out.replaced).toBe(2);
  });

  it("keeps the word before a lone number, so other numbered things are left alone", () => {
    const a = analogy(
      { state: "At drawer 6.", action: "open drawer 6" },
      { state: "At drawer 1.", action: "open drawer 1" },
    );
    const out = applySubstitutions("The drawer 6 is open. In it, you see a pen 6.", a.substitutions);
    expect(out.text).toBe("The drawer 1 is open. In it, you see a pen 6.");
  });

  it("carries the item's title and price over from the results page, matching the case of the target", () => {
    const a = analogy(
      { state: "Page 1 [SEP] B01 [SEP] Lumera Rosewood Lipstick [SEP] $14.79", action: "click[b01]" },
      { state: "Page 1 [SEP] B02 [SEP] Aveline Coral Lipstick [SEP] $8.49", action: "click[b02]" },
    );
    const out = applySubstitutions(
      "< Prev [SEP] Lumera Rosewood Lipstick [SEP] Price: $14.79 [SEP] Buy Now",
      a.substitutions,
    );
    expect(out.text).toBe("< Prev [SEP] Aveline Coral Lipstick [SEP] Price: $8.49 [SEP] Buy Now");
  });

  it("scores overlap 1 for the same situation and less for a different one", () => {
    expect(analogy({ state: "s a b", action: "go" }, { state: "s a b", action: "go" }).overlap).toBe(1);
    expect(
      analogy({ state: "s a b", action: "go" }, { state: "x y z", action: "stop" }).overlap,
    ).toBeLessThan(0.3);
  });
});
