import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isImportedDomain } from "@/core/envs/trainingDomain";
import { parseRunConfig } from "@/core/train/config";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { loadImportedDomain } from "../replay/importedDomain";
import { importTrajectoriesFile } from "../trajectories/importTrajectories";
import { runDeps } from "./runDeps";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

const sample = path.join(process.cwd(), "samples", "web-admin.jsonl");

describe("an imported domain from the database", () => {
  it("has the imported tasks with their splits and their logs, the same from the same data", async () => {
    await importTrajectoriesFile(t.db, sample);
    const domain = await loadImportedDomain(t.db, "web-admin");
    const tasks = await t.db.task.findMany({ where: { domain: "web-admin" } });
    expect(domain.taskCount("train") + domain.taskCount("test")).toBe(tasks.length);
    expect(domain.taskCount("test")).toBe(tasks.filter((x) => x.split === "test").length);
    expect(domain.successfulLogs("train").length).toBeGreaterThan(0);
    // Each log knows the policy that acted: the trust figures' base rates are per behaviour.
    const policies = new Set(domain.logsOf("test").map((log) => log.policy));
    expect(policies.has("expert")).toBe(true);
    expect(policies.has(undefined)).toBe(false);
    const again = await loadImportedDomain(t.db, "web-admin");
    expect(again.tasks("train", 5)).toEqual(domain.tasks("train", 5));
    expect(again.maxSteps).toBe(domain.maxSteps);
  });

  it("gives a DreamGym run on it the logs' replay buffer and an experience model, and the recombining generator", async () => {
    await importTrajectoriesFile(t.db, sample);
    const deps = await runDeps(t.db, parseRunConfig({ method: "dreamgym", domain: "web-admin" }));
    try {
      expect(isImportedDomain(deps.domain)).toBe(true);
      expect(deps.model).toBeDefined();
      expect(deps.buffer).toBeDefined();
      expect(deps.generator?.name).toBe("blind-recombination-v2");
    } finally {
      await deps.close();
    }
  });

  it("refuses a domain that is neither built in nor imported, and the openai task generator on an imported one", async () => {
    await expect(runDeps(t.db, parseRunConfig({ method: "dreamgym", domain: "moon" }))).rejects.toThrow(
      /unknown domain "moon": it is not built in/,
    );
    await importTrajectoriesFile(t.db, sample);
    await expect(
      runDeps(
        t.db,
        parseRunConfig({ method: "dreamgym", domain: "web-admin", backends: { taskGenerator: "openai" } }),
      ),
    ).rejects.toThrow(/task generation uses the embedded generator/);
  });
});
