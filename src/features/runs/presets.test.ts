import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RunConfig } from "@/core/train/config";
import { DEFAULT_PRESET_ID, PRESETS, presetById } from "./presets";

const CONFIGS = path.resolve(import.meta.dirname, "../../../configs");

describe("launch presets", () => {
  it("mirror every quick config and the table rows they name exactly", () => {
    const read = (file: string) =>
      RunConfig.parse(JSON.parse(fs.readFileSync(path.join(CONFIGS, file), "utf8")));
    const quick = fs.readdirSync(path.join(CONFIGS, "quick")).filter((f) => f.endsWith(".json"));
    expect(quick.length).toBeGreaterThan(0);
    for (const file of quick) {
      const preset = presetById(file.replace(/\.json$/, "-quick"));
      expect(preset, `no preset for configs/quick/${file}`).toBeDefined();
      expect(preset?.config, file).toEqual(read(path.join("quick", file)));
    }
    // The full-scale presets are the reproduction table's rows, as `train --config configs/table/…` runs them.
    for (const preset of PRESETS.filter((p) => !p.quick && !p.id.startsWith("untrained-")))
      expect(preset.config, preset.id).toEqual(read(path.join("table", `${preset.id}.json`)));
  });

  it("cover the paper's methods for every built-in domain, with quick forms", () => {
    for (const domain of ["shop", "household", "office"] as const) {
      const labels = PRESETS.filter((p) => p.domain === domain).map((p) => p.label);
      for (const label of [
        "DreamGym · GRPO",
        "DreamGym-S2R · GRPO",
        "Real-env · GRPO",
        "Real-env · PPO",
        "Behaviour cloning",
        "Untrained",
        "DreamGym · GRPO (quick)",
      ])
        expect(labels, `${domain}: ${label}`).toContain(label);
    }
    expect(presetById(DEFAULT_PRESET_ID)?.quick).toBe(true);
  });
});
