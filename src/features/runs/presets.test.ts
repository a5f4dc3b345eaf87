import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { RunConfig } from "@/core/train/config";
import { DEFAULT_PRESET_ID, PRESETS, presetById } from "./presets";

const CONFIGS = path.resolve(import.meta.dirname, "../../../configs");

describe("launch presets", () => {
  it("mirror every file in configs/ exactly", () => {
    const files = fs.readdirSync(CONFIGS).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const preset = presetById(file.replace(/\.json$/, ""));
      expect(preset, `no preset for configs/${file}`).toBeDefined();
      const fromFile = RunConfig.parse(JSON.parse(fs.readFileSync(path.join(CONFIGS, file), "utf8")));
      expect(preset?.config, file).toEqual(fromFile);
    }
    const extra = PRESETS.filter((p) => !p.id.startsWith("untrained-") && !files.includes(`${p.id}.json`));
    expect(extra.map((p) => p.id)).toEqual([]);
  });

  it("cover the paper's methods for both domains, with quick forms", () => {
    for (const domain of REAL_DOMAIN_NAMES) {
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
