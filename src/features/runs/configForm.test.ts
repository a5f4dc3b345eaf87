import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RunConfig } from "@/core/train/config";
import {
  changeValue,
  FIELDS,
  fromFormValues,
  issuesToErrors,
  isUsed,
  parseForm,
  plainMessage,
  toFormValues,
  usedSettings,
} from "./configForm";
import { PRESETS } from "./presets";

/** Every leaf path of a parsed RunConfig. */
function leaves(obj: object, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v !== null && typeof v === "object" ? leaves(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe("launch form model", () => {
  it("has a field for every RunConfig setting", () => {
    // Optional settings are absent from a parsed config unless set.
    const config = RunConfig.parse({ method: "dreamgym", domain: "shop" });
    expect(FIELDS.map((f) => f.path).sort()).toEqual(leaves(config).sort());
  });

  it("round-trips every preset through the form unchanged", () => {
    for (const preset of PRESETS) {
      const parsed = parseForm(toFormValues(preset.config));
      expect(parsed, preset.id).toEqual({ ok: true, config: preset.config });
    }
  });

  it("names the bad fields in plain words, a blank number included", () => {
    const values = toFormValues(RunConfig.parse({ method: "dreamgym", domain: "shop" }));
    values.groupSize = "1";
    values["curriculum.lambda"] = "1.5";
    values["evaluation.episodes"] = "";
    values.iterations = "2.5";
    values.tasksPerBatch = "many";
    values.learningRate = "0";
    values.name = "x".repeat(201);
    const parsed = parseForm(values);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      groupSize: "At least 2",
      "curriculum.lambda": "At most 1",
      "evaluation.episodes": "Enter a number",
      iterations: "A whole number",
      tasksPerBatch: "Enter a number",
      learningRate: "More than 0",
      name: "At most 200 characters",
    });
    expect(fromFormValues(values)).toMatchObject({ groupSize: 1, experience: { reasoning: true } });
  });

  it("says “At least 1” for a setting whose minimum is 1, from the form's parse or from the server's text", () => {
    // The schema's iterations minimum for RL methods is 1: whichever way it is written, 0 reads "At least 1".
    const issues = z.number().int().min(1).safeParse(0).error?.issues ?? [];
    expect(issues).toHaveLength(1);
    const issue = { ...issues[0]!, path: "iterations" };
    expect(issuesToErrors([issue])).toEqual({ iterations: "At least 1" });
    expect(issuesToErrors([{ path: "iterations", message: issue.message }])).toEqual({
      iterations: "At least 1",
    });
    const raw = { path: "groupSize", message: "Invalid input: expected number, received NaN" };
    expect(issuesToErrors([raw])).toEqual({ groupSize: "Enter a number" });
    expect(plainMessage({ path: "x", message: "Too big: expected number to be <=1" })).toBe("At most 1");
    expect(plainMessage({ path: "x", message: "Invalid input: expected int, received number" })).toBe(
      "A whole number",
    );
    // A message already written for people (a refinement's) is kept.
    expect(plainMessage({ path: "x", code: "custom", message: "only the last step may be done" })).toBe(
      "only the last step may be done",
    );
  });

  it("dims what the method does not read", () => {
    const values = toFormValues(RunConfig.parse({ method: "dreamgym", domain: "shop" }));
    const field = (path: string) => FIELDS.find((f) => f.path === path)!;
    expect(isUsed(field("curriculum.lambda"), values)).toBe(true);
    expect(isUsed(field("demonstrations"), values)).toBe(false);
    expect(isUsed(field("demonstrations"), { ...values, warmStart: "bc" })).toBe(true);
    // Choosing the real-env method turns task generation to its default (off), and with it the curriculum knobs.
    const real = changeValue(values, "method", "real");
    expect(real["curriculum.taskGeneration"]).toBe(false);
    expect(isUsed(field("curriculum.lambda"), real)).toBe(false);
    expect(isUsed(field("curriculum.taskGeneration"), real)).toBe(true);
    expect(isUsed(field("curriculum.lambda"), { ...real, "curriculum.taskGeneration": true })).toBe(true);
    // Behaviour cloning has its own step size; the RL one is dimmed, and PPO's knobs are dimmed for GRPO.
    expect(isUsed(field("learningRate"), { ...values, method: "bc" })).toBe(false);
    expect(isUsed(field("bc.learningRate"), { ...values, method: "bc" })).toBe(true);
    expect(isUsed(field("ppo.gaeLambda"), values)).toBe(false);
    expect(isUsed(field("ppo.gaeLambda"), { ...values, algorithm: "ppo" })).toBe(true);
  });

  it("shows a stored run's config as the settings its method read", () => {
    const paths = (stored: unknown) => usedSettings(stored).map((s) => s.path);
    const grpo = paths(RunConfig.parse({ method: "dreamgym", domain: "shop", groupSize: 4 }));
    expect(grpo).toContain("grpo.klBeta");
    expect(grpo).toContain("experience.k");
    expect(grpo).not.toContain("ppo.gamma");
    expect(grpo).not.toContain("bc.learningRate");
    expect(
      usedSettings({ method: "dreamgym", domain: "shop", groupSize: 4 }).find((s) => s.path === "groupSize"),
    ).toMatchObject({ label: "Group size", value: "4" });
    const bc = paths(RunConfig.parse({ method: "bc", domain: "household" }));
    expect(bc).toEqual(expect.arrayContaining(["bc.learningRate", "demonstrations"]));
    expect(bc).not.toContain("algorithm");
    expect(bc).not.toContain("curriculum.lambda");
    // An unreadable (older) config is shown as stored rather than hidden.
    expect(paths({ method: "retired", steps: 3 })).toEqual(["method", "steps"]);
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
