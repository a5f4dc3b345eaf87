import { describe, expect, it } from "vitest";
import { editsInPlace, transferEdit } from "./pageEdit";

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
});
