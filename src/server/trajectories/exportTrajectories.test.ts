import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { collectOffline } from "../collect/collectOffline";
import { exportTrajectories } from "./exportTrajectories";
import { importTrajectoriesFile } from "./importTrajectories";

let t: TestDb;
let dir: string;
beforeEach(async () => {
  t = await createTestDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-"));
});
afterEach(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("exporting trajectories in the import format", () => {
  it("round-trips a built-in domain's logs into an imported copy with its own tasks", async () => {
    await collectOffline(t.db, {
      domain: "shop",
      policy: "expert",
      episodes: 3,
      split: "train",
      epsilon: 0,
      seed: 1,
      offset: 0,
    });
    await collectOffline(t.db, {
      domain: "shop",
      policy: "expert",
      episodes: 2,
      split: "test",
      epsilon: 0,
      seed: 1,
      offset: 0,
    });
    const lines = await exportTrajectories(t.db, { domain: "shop", as: "shop-copy" });
    expect(lines).toHaveLength(5);
    expect(lines.every((l) => l.domain === "shop-copy" && l.task_id?.startsWith("shop-copy:shop:"))).toBe(
      true,
    );
    expect(lines.filter((l) => l.split === "test")).toHaveLength(2);
    const file = path.join(dir, "copy.jsonl");
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
    const summary = await importTrajectoriesFile(t.db, file);
    expect(summary).toMatchObject({ imported: 5, duplicates: 0 });
    const original = await t.db.step.findMany({
      where: { trajectory: { domain: "shop" } },
      orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
    });
    const copy = await t.db.step.findMany({ where: { trajectory: { domain: "shop-copy" } } });
    expect(copy).toHaveLength(original.length);
    // The next state's admissible actions come back from the log's next step.
    const withNext = copy.filter((s) => !s.done);
    expect(withNext.every((s) => Array.isArray(s.nextActions))).toBe(true);
    // Exporting only a split, under the domain's own name, keeps its ids.
    const test = await exportTrajectories(t.db, { domain: "shop", split: "test" });
    expect(test.map((l) => l.task_id).sort()).toEqual(["shop:test:0", "shop:test:1"]);
  });
});
