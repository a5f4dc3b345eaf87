import { describe, expect, it } from "vitest";
import { fullProcess, indelSimilarity, ratio, roundHalfEven, tokenSetRatio } from "./fuzz";

describe("thefuzz's ratio and token_set_ratio", () => {
  it("gives the values fuzzywuzzy's and rapidfuzz's documentation give", () => {
    // fuzzywuzzy README
    expect(ratio("this is a test", "this is a test!")).toBe(97);
    expect(ratio("fuzzy wuzzy was a bear", "wuzzy fuzzy was a bear")).toBe(91);
    expect(tokenSetRatio("fuzzy was a bear", "fuzzy fuzzy was a bear")).toBe(100);
    // rapidfuzz's fuzz.ratio, unrounded
    expect(indelSimilarity("this is a test", "this is a test!")).toBeCloseTo(96.55172413793103, 10);
  });

  it("passes fuzzywuzzy's own token-set tests: word order, and force_ascii", () => {
    expect(tokenSetRatio("new york mets vs atlanta braves", "atlanta braves vs new york mets")).toBe(100);
    // token_set_ratio drops code points 128-255 before comparing.
    expect(tokenSetRatio("ABCD\u00C1 HELP\u00C1", "ABCD HELP")).toBe(100);
  });

  it("decides WebShop's own test cases the way its tests expect", () => {
    // tests/web-agent-site/engine/test_goal.py: attributes and options that must match, and one that must not.
    expect(tokenSetRatio("essential oil", "essential oils")).toBe(96);
    expect(tokenSetRatio("powder snow", "cool powder snow")).toBe(100);
    expect(tokenSetRatio("tea bag", "tea tree")).toBeLessThanOrEqual(85);
  });

  it("reads text as thefuzz's full_process does: punctuation splits words, case folds", () => {
    expect(fullProcess("  X-Large (Pack of 2) ")).toBe("x large  pack of 2");
    expect(fullProcess("men's")).toBe("men s");
    expect(fullProcess("snake_case")).toBe("snake_case");
    // "large" is a word of "x-large", so the one is contained in the other.
    expect(tokenSetRatio("large", "x-large")).toBe(100);
  });

  it("scores 0 when a side has no words, and 100 for one side's words inside the other's", () => {
    expect(tokenSetRatio("", "large")).toBe(0);
    expect(tokenSetRatio("--", "large")).toBe(0);
    expect(tokenSetRatio("large", "size x-large")).toBe(100);
    // The reverse is not contained: "x" has no partner in "size large".
    expect(tokenSetRatio("x-large", "size large")).toBe(83);
  });

  it("rounds as Python does, halves to even, so that > 85 is decided on thefuzz's integer", () => {
    expect(roundHalfEven(84.5)).toBe(84);
    expect(roundHalfEven(85.5)).toBe(86);
    expect(roundHalfEven(86.5)).toBe(86);
    expect(roundHalfEven(85.4)).toBe(85);
    expect(roundHalfEven(85.6)).toBe(86);
    // The shared words "4 8 fl of oz pack" (17 characters) against them plus a 5-letter word: 2·17/40 = 85.0,
    // which is not above 85.
    expect(tokenSetRatio("8.4 fl oz (pack of extra)", "size 8.4 fl oz (pack of 1)")).toBe(85);
    // Against them plus "2": 2·17/36 = 94.4; a pack count that differs passes even beside the type's name.
    expect(tokenSetRatio("8.4 fl oz (pack of 2)", "size 8.4 fl oz (pack of 1)")).toBe(94);
  });
});
