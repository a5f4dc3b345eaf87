import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { splitBrainFences } from "../../../tests/helpers/staleFence";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { SAMPLE_FILE } from "../demo/sampleFile";
import { LeaseLost } from "../queue/fence";
import { ImportRejected, importTrajectoriesFile, importTrajectoriesText } from "./importTrajectories";

/** The current test's database (set per database by the suite below; helpers above it use it). */
let t: TestDb;

async function counts() {
  return {
    tasks: await t.db.task.count(),
    trajectories: await t.db.trajectory.count(),
    steps: await t.db.step.count(),
  };
}

describeEachDatabase("trajectory import", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("writes nothing for a worker that lost its import job, and everything for the one that holds it", async () => {
    const { stale, current } = await splitBrainFences(t.db, "import", { path: SAMPLE_FILE, name: "sample" });
    await expect(importTrajectoriesFile(t.db, SAMPLE_FILE, "sample", stale)).rejects.toBeInstanceOf(
      LeaseLost,
    );
    expect(await counts()).toEqual({ tasks: 0, trajectories: 0, steps: 0 });
    const summary = await importTrajectoriesFile(t.db, SAMPLE_FILE, "sample", current);
    expect((await counts()).trajectories).toBe(summary.imported);
    expect(summary.imported).toBeGreaterThan(0);
  });

  it("imports the shipped sample with every step, reasoning and outcome", async () => {
    const summary = await importTrajectoriesFile(t.db, SAMPLE_FILE, "sample");
    const lines = fs.readFileSync(SAMPLE_FILE, "utf8").trim().split("\n");
    expect(summary).toMatchObject({ trajectories: lines.length, imported: lines.length, duplicates: 0 });
    const expectedSteps = lines.reduce((n, l) => n + (JSON.parse(l) as { steps: unknown[] }).steps.length, 0);
    expect(await counts()).toMatchObject({ trajectories: lines.length, steps: expectedSteps });
    const newsletter = await t.db.trajectory.findMany({
      where: { taskId: "web:newsletter" },
      include: { steps: true },
    });
    expect(newsletter).toHaveLength(2); // two attempts at one task share the task row
    const invalid = await t.db.step.findFirst({ where: { valid: false } });
    expect(invalid?.state).toBe(invalid?.nextState); // the paper's rule holds in our sample
    const winner = newsletter.find((n) => n.success);
    expect(winner?.steps.find((s) => s.done)?.reasoning).toMatch(/Saving stores/);
  });

  it("re-importing the same file adds nothing", async () => {
    await importTrajectoriesFile(t.db, SAMPLE_FILE, "sample");
    const before = await counts();
    const again = await importTrajectoriesFile(t.db, SAMPLE_FILE, "sample");
    expect(again.imported).toBe(0);
    expect(again.duplicates).toBe(again.trajectories);
    expect(await counts()).toEqual(before);
  });

  it("gives the same file the same ids in every database, derived from the content", async () => {
    await importTrajectoriesFile(t.db, SAMPLE_FILE, "sample");
    const other = await createTestDb();
    try {
      await importTrajectoriesFile(other.db, SAMPLE_FILE, "another name");
      const ids = async (db: TestDb["db"]) => ({
        trajectories: await db.trajectory.findMany({
          select: { id: true, importKey: true },
          orderBy: { id: "asc" },
        }),
        steps: (await db.step.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((s) => s.id),
      });
      const mine = await ids(t.db);
      expect(await ids(other.db)).toEqual(mine);
      for (const { id, importKey } of mine.trajectories) expect(id).toBe(`imp-${importKey}`);
      const step = await t.db.step.findFirstOrThrow({ where: { index: 1 } });
      expect(step.id).toBe(`${step.trajectoryId}-1`);
    } finally {
      await other.cleanup();
    }
  });

  it("rejects a malformed file whole, naming every bad line, and writes nothing", async () => {
    const good = fs.readFileSync(SAMPLE_FILE, "utf8").trim().split("\n");
    const text = [
      good[0],
      '{"domain":"web"',
      good[1],
      JSON.stringify({ domain: "web", instruction: "x", steps: [{ state: "a" }] }),
    ].join("\n");
    const error = await importTrajectoriesText(t.db, text, "broken.jsonl").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    const rejected = error as ImportRejected;
    expect(rejected.errors.map((e) => e.line)).toEqual([2, 4]);
    expect(rejected.message).toMatch(/broken\.jsonl was rejected \(2 bad lines\), nothing imported/);
    expect(rejected.message).toMatch(/line 4: steps\[0\]\.action/);
    expect(await counts()).toEqual({ tasks: 0, trajectories: 0, steps: 0 });
  });

  it("leaves nothing behind when the database fails mid-import", async () => {
    const lines = fs.readFileSync(SAMPLE_FILE, "utf8").trim().split("\n");
    // A trigger that fails the fourth trajectory insert stands in for a crash or a full disk.
    if (dialect === "postgresql") {
      await t.db.$executeRawUnsafe(
        `CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
           IF (SELECT COUNT(*) FROM "Trajectory") >= 3 THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`,
      );
      await t.db.$executeRawUnsafe(
        `CREATE TRIGGER boom BEFORE INSERT ON "Trajectory" FOR EACH ROW EXECUTE FUNCTION boom()`,
      );
    } else
      await t.db.$executeRawUnsafe(
        `CREATE TRIGGER boom BEFORE INSERT ON "Trajectory" WHEN (SELECT COUNT(*) FROM "Trajectory") >= 3 BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
      );
    await expect(importTrajectoriesText(t.db, lines.join("\n"), "sample")).rejects.toThrow();
    expect(await counts()).toEqual({ tasks: 0, trajectories: 0, steps: 0 });
  });

  it("names the file when it cannot be read", async () => {
    await expect(importTrajectoriesFile(t.db, path.join(t.dir, "missing.jsonl"))).rejects.toThrow(
      /Cannot read import file .*missing\.jsonl/,
    );
  });
});
