import { describe, expect, it } from "vitest";
import { choiceEdit, editsInPlace, transferEdit } from "./pageEdit";

const ITEM_A =
  "< Prev [SEP] color [SEP] black [SEP] red [SEP] Kinetek Go Speaker [SEP] Price: $10.00 [SEP] Description [SEP] Buy Now";
const ITEM_A_BLACK =
  "< Prev [SEP] color [SEP] black [SEP] red [SEP] Kinetek Go Speaker [SEP] Price: $10.00 [SEP] Selected: color: black [SEP] Description [SEP] Buy Now";
const ITEM_B =
  "< Prev [SEP] color [SEP] red [SEP] teal [SEP] Zentro Pro Speaker [SEP] Price: $20.00 [SEP] Description [SEP] Buy Now";

describe("page edits", () => {
  it("tells an edit of the page from a new page", () => {
    expect(editsInPlace({ text: ITEM_A }, { text: ITEM_A_BLACK })).toBe(true);
    expect(editsInPlace({ text: ITEM_A }, { text: "Features [SEP] LOUD - loud sound [SEP] < Prev" })).toBe(
      false,
    );
    expect(editsInPlace({ text: ITEM_A }, { text: ITEM_A })).toBe(false);
  });

  it("makes the analogue's change to this page, next to the element it was made beside, rewritten for here", () => {
    const rewritten = transferEdit(ITEM_A, ITEM_A_BLACK, ITEM_B, (s) => s.replace("black", "red"));
    // The price differs, so the selection is placed before "Description", the element that follows it.
    expect(rewritten).toBe(
      "< Prev [SEP] color [SEP] red [SEP] teal [SEP] Zentro Pro Speaker [SEP] Price: $20.00 [SEP] Selected: color: red [SEP] Description [SEP] Buy Now",
    );
    // A replaced selection replaces it here too.
    const twice = transferEdit(
      ITEM_A_BLACK,
      ITEM_A_BLACK.replace("Selected: color: black", "Selected: color: red"),
      rewritten!,
      (s) => s.replace("red", "teal"),
    );
    expect(twice).toContain("Selected: color: teal [SEP] Description");
    expect(twice).not.toContain("Selected: color: red");
    // Nowhere to put it: no prediction from the edit.
    expect(transferEdit(ITEM_A, ITEM_A_BLACK, "Something else entirely", (s) => s)).toBeUndefined();
  });

  describe("a choice", () => {
    const page = (text: string) => ({
      text,
      actions: [
        "click[< prev]",
        "click[black]",
        "click[red]",
        "click[teal]",
        "click[small]",
        "click[large]",
        "click[description]",
        "click[buy now]",
      ],
    });
    const ITEM =
      "< Prev [SEP] color [SEP] red [SEP] teal [SEP] size [SEP] small [SEP] large [SEP] Zentro Pro Speaker [SEP] Price: $20.00 [SEP] Rating: 4.1";
    const TAIL = "Description [SEP] Buy Now";
    // The analogue had chosen a colour before its size: its record lists both.
    const example = {
      state: page(
        `${ITEM_A.replace(" [SEP] Description [SEP] Buy Now", "")} [SEP] size [SEP] small [SEP] large [SEP] Selected: color: black [SEP] ${TAIL}`,
      ),
      action: "click[large]",
      next: page(
        `${ITEM_A.replace(" [SEP] Description [SEP] Buy Now", "")} [SEP] size [SEP] small [SEP] large [SEP] Selected: color: black; size: large [SEP] ${TAIL}`,
      ),
    };

    it("is recorded on this page, without the analogue's other choices, where the analogue's record stood", () => {
      expect(choiceEdit(page(`${ITEM} [SEP] ${TAIL}`), "click[teal]", example)).toBe(
        `${ITEM} [SEP] Selected: color: teal [SEP] ${TAIL}`,
      );
    });

    it("joins the choices already made, and a group chosen again changes its option in place", () => {
      const chosen = page(`${ITEM} [SEP] Selected: size: small; color: red [SEP] ${TAIL}`);
      expect(choiceEdit(chosen, "click[teal]", example)).toBe(
        `${ITEM} [SEP] Selected: size: small; color: teal [SEP] ${TAIL}`,
      );
      expect(
        choiceEdit(page(`${ITEM} [SEP] Selected: color: red [SEP] ${TAIL}`), "click[large]", example),
      ).toBe(`${ITEM} [SEP] Selected: color: red; size: large [SEP] ${TAIL}`);
    });

    it("is not an action that chooses nothing, nor learnt from an example that records no choice", () => {
      expect(choiceEdit(page(`${ITEM} [SEP] ${TAIL}`), "click[buy now]", example)).toBeUndefined();
      expect(
        choiceEdit(page(`${ITEM} [SEP] ${TAIL}`), "click[teal]", { ...example, next: example.state }),
      ).toBeUndefined();
    });
  });
});
