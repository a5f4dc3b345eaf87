import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

describe("import --format", () => {
  it("converts an AgentTraj file under a chosen domain, and refuses a malformed one by its lines", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-cli-"));
    const cli = (...args: string[]) =>
      promisify(execFile)("npx", ["tsx", "src/cli/main.ts", ...args], {
        cwd: root,
        env: { ...process.env, DREAMGYM_DATA_DIR: dir, LANCEDB_DIR: path.join(dir, "lancedb") },
      });
    const item = (id: string) => ({
      item_id: id,
      conversations: [
        { from: "human", value: "You are in a kitchen.\nYour task is to: heat some water." },
        { from: "gpt", value: "Thought: The kettle heats water.\nAction: use kettle 1" },
        { from: "human", value: "The water is hot." },
      ],
      success: true,
    });
    try {
      const good = path.join(dir, "items.json");
      fs.writeFileSync(good, JSON.stringify([item("kitchen_1"), item("kitchen_2")], null, 2));
      const { stdout } = await cli("import", good, "--format", "agenttraj", "--domain", "kitchen");
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toMatchObject({
        format: "agenttraj",
        imported: 2,
        steps: 2,
        indexed: 2,
      });

      const bad = path.join(dir, "bad.json");
      fs.writeFileSync(bad, JSON.stringify([item("kitchen_3"), { item_id: "kitchen_4" }], null, 2));
      const failed = await cli("import", bad, "--format", "auto").catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect("code" in failed && failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /bad\.json was rejected \(1 bad line\)[\s\S]*line 20: item 2 \(item_id "kitchen_4"\): conversations: missing/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
