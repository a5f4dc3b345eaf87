import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkClaims, findClaims, unlinkedFigures } from "./helpers/claims";

/*
 * Every figure the README and docs/ quote from a benchmark is a link to the file in bench/results it comes from,
 * with the value's place in that file after the '#': `[6.2 ms](bench/results/ui-stepper.json#nextStepMs.p50)`.
 * This test reads each one back, so a figure changed by hand, or a result file rewritten under a stale page, fails.
 */
const root = path.resolve(import.meta.dirname, "..");
const pages = [
  "README.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("figures quoted from bench/results", () => {
  for (const page of pages) {
    it(`${page}: every linked figure is the value in its results file`, () => {
      const text = fs.readFileSync(path.join(root, page), "utf8");
      expect(checkClaims(text, root)).toEqual([]);
    });
  }

  it("the README quotes many figures, each one linked", () => {
    const text = fs.readFileSync(path.join(root, "README.md"), "utf8");
    expect(findClaims(text).length).toBeGreaterThanOrEqual(20);
    expect(unlinkedFigures(text)).toEqual([]);
  });

  it("fails when a figure is changed by hand", () => {
    const text = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const first = findClaims(text)[0]!;
    const changed = text.replace(first.raw, first.raw.replace(first.shown, `${first.shown}9`));
    expect(checkClaims(changed, root)[0]).toMatch(/says .* but .* holds/);
  });

  it("fails on a figure quoted without its source", () => {
    expect(unlinkedFigures("The step takes 6.2 ms p50, and 83% succeed.\n")).toEqual([
      "line 1: 6.2 ms",
      "line 1: 83%",
    ]);
    expect(unlinkedFigures("```\nnpm run bench  # 6.2 ms\n```\n")).toEqual([]);
  });
});

describe("no page names a period of work", () => {
  it("README.md and docs/ speak of the product, never of when it was made", () => {
    const hits = pages.flatMap((page) =>
      fs
        .readFileSync(path.join(root, page), "utf8")
        .split("\n")
        .flatMap((line, i) =>
          /\bsessions? \d+\b|\bthis session\b|\blast session\b|\bin session\b/i.test(line)
            ? [`${page}:${i + 1}`]
            : [],
        ),
    );
    expect(hits).toEqual([]);
  });
});
