import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createDb } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";

const root = path.resolve(import.meta.dirname, "../../..");

describe("audit", () => {
  it("exits 0 on whole stores and 1 once a problem is found, a failed job among them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-cli-audit-"));
    const audit = () =>
      promisify(execFile)("npx", ["tsx", "src/cli/main.ts", "audit"], {
        cwd: root,
        env: { ...process.env, DREAMGYM_DATA_DIR: dir, LANCEDB_DIR: path.join(dir, "lancedb") },
      }).then(
        (ok) => ({ code: 0, stdout: ok.stdout }),
        (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
      );
    try {
      const url = `file:${path.join(dir, "dreamgym.db")}`;
      await migrateDeploy(url);
      const whole = await audit();
      expect(whole.code).toBe(0);
      expect(JSON.parse(whole.stdout).problems).toEqual([]);

      const db = await createDb(url);
      await db.job.create({ data: { type: "index", payload: {}, status: "failed", error: "disk full" } });
      await db.$disconnect();
      const broken = await audit();
      expect(broken.code).toBe(1);
      expect(JSON.parse(broken.stdout).problems).toEqual([
        expect.stringMatching(/^1 jobs failed: .* \(index: disk full\)$/),
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
