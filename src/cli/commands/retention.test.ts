import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createDb } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { writeRun } from "@/server/retention/testing";

const root = path.resolve(import.meta.dirname, "../../..");

/** The last line of stdout, where every command prints its JSON. */
function lastJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

describe("delete-run and delete-import", () => {
  it("say what they would delete and exit 1 without --yes; delete with it; reconcile then has nothing to do", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-cli-"));
    const cli = (...args: string[]) =>
      promisify(execFile)("npx", ["tsx", "src/cli/main.ts", ...args], {
        cwd: root,
        env: { ...process.env, DREAMGYM_DATA_DIR: dir, LANCEDB_DIR: path.join(dir, "lancedb") },
      });
    try {
      // A run written straight into the data folder's database; the import then indexes its steps too.
      const url = `file:${path.join(dir, "dreamgym.db")}`;
      await migrateDeploy(url);
      const db = await createDb(url);
      const { runId, expected } = await writeRun(db, "cli run");
      await db.$disconnect();
      const imported = lastJson((await cli("import", "samples/web-navigation.jsonl")).stdout);
      expect(imported.indexed).toBe((imported.steps as number) + expected.steps);

      const dry = await cli("delete-run", runId).catch((e: { stdout: string; stderr: string }) => e);
      expect(dry.stderr).toContain(`nothing deleted: pass --yes to delete run "cli run" (${runId})`);
      expect(lastJson(dry.stdout)).toMatchObject({ deleted: false, wouldDelete: { runId, ...expected } });

      const deleted = lastJson((await cli("delete-run", runId, "--yes")).stdout);
      expect(deleted).toMatchObject({
        deleted: true,
        ...expected,
        lanceRowsRemoved: expected.steps,
        lanceError: null,
      });

      const [listed] = JSON.parse((await cli("imports")).stdout.trim()) as { name: string; steps: number }[];
      expect(listed).toMatchObject({ name: "samples/web-navigation.jsonl", steps: imported.steps });
      const gone = lastJson((await cli("delete-import", "samples/web-navigation.jsonl", "--yes")).stdout);
      expect(gone).toMatchObject({ deleted: true, steps: imported.steps, lanceRowsRemoved: imported.steps });

      expect(lastJson((await cli("reconcile")).stdout)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
