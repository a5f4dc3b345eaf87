import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseImport } from "@/core/trajectories/importFormat";
import { WEB_ADMIN_SAMPLE_FILE } from "@/server/demo/sampleFile";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";
import { generateWebAdmin, WEB_ADMIN_DOMAIN, webAdminJsonl } from "../../scripts/samples/webAdmin";
import { createTestDb, type TestDb } from "../helpers/testDb";

const SAMPLE = WEB_ADMIN_SAMPLE_FILE;

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

describe("the web-admin sample", () => {
  it("is exactly what the generator writes from its seed (npm run sample:web)", () => {
    expect(fs.readFileSync(SAMPLE, "utf8") === webAdminJsonl(generateWebAdmin())).toBe(true);
    expect(webAdminJsonl(generateWebAdmin("another seed", 20))).not.toBe(
      webAdminJsonl(generateWebAdmin(undefined, 20)),
    );
  });

  it("mixes expert and noisy sessions over train and test tasks, with the site's rules kept on every step", () => {
    const parsed = parseImport(fs.readFileSync(SAMPLE, "utf8"));
    expect(parsed.errors).toEqual([]);
    const lines = parsed.trajectories.map((x) => x.data);
    expect(lines).toHaveLength(300);
    expect(new Set(lines.map((l) => l.domain))).toEqual(new Set([WEB_ADMIN_DOMAIN]));
    const won = (l: (typeof lines)[number]) => l.steps.at(-1)?.success === true;
    const experts = lines.filter((l) => l.policy === "expert");
    expect(experts.every(won)).toBe(true);
    const noisy = lines.filter((l) => l.policy !== "expert");
    expect(noisy.filter(won).length).toBeGreaterThan(noisy.length / 3);
    expect(noisy.filter((l) => !won(l)).length).toBeGreaterThan(noisy.length / 5);
    // No task is in both splits, and both have tasks.
    const splitOf = new Map<string, Set<string>>();
    for (const l of lines)
      splitOf.set(l.task_id as string, (splitOf.get(l.task_id as string) ?? new Set()).add(l.split));
    expect([...splitOf.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(lines.map((l) => l.split))).toEqual(new Set(["train", "test"]));
    for (const step of lines.flatMap((l) => l.steps)) {
      expect(step.reasoning).toBeTruthy();
      if (step.valid === false) {
        expect(step.next_state).toBe(step.state); // the paper's rule: an invalid action changes nothing
        continue;
      }
      const template = step.action
        .replace(/^(type\[[^\]]+\])\[.*\]$/s, "$1")
        .replace(/^stop\[.*\]$/s, "stop[answer]");
      expect(step.admissible_actions).toContain(template);
    }
  });

  it("imports cleanly, and a second time adds nothing", async () => {
    const started = performance.now();
    const summary = await importTrajectoriesFile(t.db, SAMPLE, "samples/web-admin.jsonl");
    const ms = performance.now() - started;
    expect(summary).toMatchObject({ trajectories: 300, imported: 300, duplicates: 0 });
    expect(await t.db.trajectory.count({ where: { domain: WEB_ADMIN_DOMAIN } })).toBe(300);
    expect(await t.db.step.count()).toBe(summary.steps);
    expect(await t.db.task.count({ where: { domain: WEB_ADMIN_DOMAIN, split: "test" } })).toBeGreaterThan(0);
    expect((await importTrajectoriesFile(t.db, SAMPLE, "again")).imported).toBe(0);
    console.log(
      `web-admin sample: ${summary.trajectories} trajectories, ${summary.steps} steps imported in ${ms.toFixed(0)} ms`,
    );
  });
});
