import { describe, expect, it } from "vitest";
import { parseRunConfig } from "./config";
import { importedRunProblem } from "./importedRun";

describe("experimental.oracle in a run config", () => {
  it("is off by default, and refused with a bad pattern or in an imported domain", () => {
    expect(() =>
      parseRunConfig({
        method: "dreamgym",
        domain: "shop",
        experimental: { oracle: { states: "matching", actions: "click[(" } },
      }),
    ).toThrow(/experimental\.oracle: actions is not a regular expression/);
    expect(() =>
      parseRunConfig({
        method: "dreamgym",
        domain: "shop",
        experimental: { oracle: { states: "matching" } },
      }),
    ).toThrow(/experimental\.oracle: states "matching" needs actions/);
    const imported = parseRunConfig({
      method: "dreamgym",
      domain: "shop-imported",
      experimental: { oracle: { states: "none", reward: true } },
    });
    expect(importedRunProblem(imported)).toMatch(/experimental\.oracle .* has none/);
    // Off by default: a plain config's settings carry no oracle.
    expect(parseRunConfig({ method: "dreamgym", domain: "shop" }).experimental.oracle).toEqual({
      states: "none",
      reward: false,
    });
  });
});
