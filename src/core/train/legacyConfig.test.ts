import { describe, expect, it } from "vitest";
import { parseRunConfig } from "./config";

describe("stored run configs from before buffer enrichment and the blind generator", () => {
  it("read offlineOnly as its two meanings, and a built-in domain's old variations as grounded", () => {
    const stored = { method: "dreamgym", domain: "shop", experience: { k: 8, offlineOnly: true } };
    const old = parseRunConfig(stored);
    expect(old.experience).toEqual({ k: 8, historyWindow: 4, reasoning: true, enrichBuffer: false });
    expect(old.curriculum.generator).toBe("grounded");
    // offlineOnly off was enrichment; a generator the config names is kept.
    const enriched = parseRunConfig({
      ...stored,
      experience: { offlineOnly: false },
      curriculum: { generator: "blind" },
    });
    expect(enriched.experience.enrichBuffer).toBe(true);
    expect(enriched.curriculum.generator).toBe("blind");
    // An imported domain's variations were recombined instructions already: blind.
    const imported = parseRunConfig({
      method: "dreamgym",
      domain: "web-admin",
      experience: { offlineOnly: true },
    });
    expect(imported.curriculum.generator).toBe("blind");
  });

  it("resolves a new config's generator: blind, or grounded with the openai generator, and refuses what cannot be", () => {
    expect(parseRunConfig({ method: "dreamgym", domain: "household" }).curriculum.generator).toBe("blind");
    expect(
      parseRunConfig({ method: "dreamgym", domain: "household", backends: { taskGenerator: "openai" } })
        .curriculum.generator,
    ).toBe("grounded");
    expect(() =>
      parseRunConfig({
        method: "dreamgym",
        domain: "shop",
        backends: { taskGenerator: "openai" },
        curriculum: { generator: "blind" },
      }),
    ).toThrow(/curriculum\.generator: the openai task generator writes goals .* it is grounded/);
    expect(() =>
      parseRunConfig({ method: "dreamgym", domain: "web-admin", curriculum: { generator: "grounded" } }),
    ).toThrow(/curriculum\.generator: the grounded task generator reads a built-in environment/);
    // Resolved and stored whole, a config reads back the same.
    const resolved = parseRunConfig({
      method: "dreamgym",
      domain: "shop",
      experience: { enrichBuffer: true },
    });
    expect(parseRunConfig(JSON.parse(JSON.stringify(resolved)))).toEqual(resolved);
  });
});
