import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PolicyCheckpoint } from "@/core/policy/checkpoint";
import { applyOverride } from "@/core/train/overrides";

const root = path.resolve(import.meta.dirname, "../../..");

describe("train --set", () => {
  it("sets a setting by its dotted path, reading JSON values and text otherwise", () => {
    const config: Record<string, unknown> = { method: "real", grpo: { epochs: 2 } };
    applyOverride(config, "grpo.klBeta=0.04");
    applyOverride(config, "ppo.clipValueLoss=false");
    applyOverride(config, "name=my run");
    expect(config).toEqual({
      method: "real",
      name: "my run",
      grpo: { epochs: 2, klBeta: 0.04 },
      ppo: { clipValueLoss: false },
    });
    expect(() => applyOverride(config, "grpo")).toThrow(/expected key=value/);
    expect(() => applyOverride(config, "method.x=1")).toThrow(/method is not a group of settings/);
  });

  it("trains from a config file with overrides and reports them; a bad override names the field", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-cli-"));
    const run = (...args: string[]) =>
      promisify(execFile)("npx", ["tsx", "src/cli/main.ts", "train", ...args], {
        cwd: root,
        env: { ...process.env, DREAMGYM_DATA_DIR: dir, LANCEDB_DIR: path.join(dir, "lancedb") },
      });
    try {
      // Behaviour cloning needs no offline data in the database: the expert demonstrates on the spot.
      const checkpoint = path.join(dir, "policy.json");
      const { stdout } = await run(
        "--config",
        "configs/quick/household-bc.json",
        "--checkpoint",
        checkpoint,
        "--set",
        "demonstrations=5",
        "--set",
        "evaluation.episodes=2",
        "--set",
        "bc.epochs=3",
      );
      const line = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
      expect(line).toMatchObject({
        method: "bc",
        algorithm: "bc",
        testEpisodes: 2,
        overrides: ["demonstrations=5", "evaluation.episodes=2", "bc.epochs=3"],
        checkpoint,
      });
      // The final policy, whole, in the checkpoint format the app stores.
      const saved = PolicyCheckpoint.parse(JSON.parse(fs.readFileSync(checkpoint, "utf8")));
      expect(saved.weights.length).toBeGreaterThan(0);
      expect(fs.existsSync(`${checkpoint}.partial`)).toBe(false);
      await expect(
        run("--config", "configs/quick/household-bc.json", "--set", "bc.epochz=3"),
      ).rejects.toThrow(/bc[\s\S]*epochz/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
