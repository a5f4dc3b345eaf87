import { describe, expect, it } from "vitest";
import { RunConfig } from "@/core/train/config";
import { FIELDS, fromFormValues, issuesToErrors, isUsed, parseForm, toFormValues } from "./configForm";
import { PRESETS } from "./presets";

/** Every leaf path of a parsed RunConfig. */
function leaves(obj: object, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v !== null && typeof v === "object" ? leaves(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe("launch form model", () => {
  it("has a field for every RunConfig setting", () => {
    const config = RunConfig.parse({ method: "dreamgym", domain: "shop" });
    expect(FIELDS.map((f) => f.path).sort()).toEqual(leaves(config).sort());
  });

  it("round-trips every preset through the form unchanged", () => {
    for (const preset of PRESETS) {
      const parsed = parseForm(toFormValues(preset.config));
      expect(parsed, preset.id).toEqual({ ok: true, config: preset.config });
    }
  });

  it("names the bad fields with zod's messages, a blank number included", () => {
    const values = toFormValues(RunConfig.parse({ method: "dreamgym", domain: "shop" }));
    values.groupSize = "1";
    values["curriculum.lambda"] = "1.5";
    values["evaluation.episodes"] = "";
    values.iterations = "2.5";
    const parsed = parseForm(values);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual([
      "curriculum.lambda",
      "evaluation.episodes",
      "groupSize",
      "iterations",
    ]);
    expect(parsed.errors.groupSize).toMatch(/>=\s*2/);
    expect(fromFormValues(values)).toMatchObject({ groupSize: 1, experience: { reasoning: true } });
  });

  it("dims what the method does not read", () => {
    const values = toFormValues(RunConfig.parse({ method: "dreamgym", domain: "shop" }));
    const field = (path: string) => FIELDS.find((f) => f.path === path)!;
    expect(isUsed(field("curriculum.lambda"), values)).toBe(true);
    expect(isUsed(field("demonstrations"), values)).toBe(false);
    expect(isUsed(field("demonstrations"), { ...values, warmStart: "bc" })).toBe(true);
    expect(isUsed(field("curriculum.lambda"), { ...values, method: "real" })).toBe(false);
    expect(isUsed(field("learningRate"), { ...values, method: "bc" })).toBe(true);
  });

  it("keeps server issues that name no field", () => {
    expect(
      issuesToErrors([
        { path: "groupSize", message: "too small" },
        { path: "", message: "bad" },
      ]),
    ).toEqual({
      groupSize: "too small",
      "": "bad",
    });
  });
});
