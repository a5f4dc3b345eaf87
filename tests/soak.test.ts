import { describe, expect, it } from "vitest";
import { planCounts, planSoak } from "../scripts/soak/plan";
import { runSoak } from "../scripts/soak/soak";
import { describeEachDatabase, testPostgresUrl } from "./helpers/testDb";

/**
 * The short form of `npm run soak`: a minute of training runs, imports, teacher jobs, deletions, environment-server
 * episodes and UI reads, while workers are killed (kill -9), paused past their lease, the SQLite database's disk
 * fills up and another process holds the database's lock; then nothing may be lost, doubled or stuck, and the audit
 * must find nothing.
 */
describeEachDatabase("soak", (dialect) => {
  it("loses nothing, stores nothing twice and leaves nothing stuck under a minute of load and faults", async () => {
    const lines: string[] = [];
    const postgresUrl = testPostgresUrl();
    const report = await runSoak({
      minutes: 1,
      seed: 5,
      db: dialect === "postgresql" ? "postgres" : "sqlite",
      ...(dialect === "postgresql" && postgresUrl ? { postgresUrl } : {}),
      drainMs: 120_000,
      log: (line) => lines.push(line),
    });
    const context = `${lines.join("\n")}\n${JSON.stringify(report.counts)}`;
    expect(report.problems, context).toEqual([]);
    const c = report.counts;
    expect(c.runs, context).toBeGreaterThan(0);
    expect(c.runsSucceeded + c.runsDeleted, context).toBe(c.runs);
    expect(c.kills, context).toBeGreaterThan(0);
    expect(c.pauses, context).toBeGreaterThan(0);
    expect(c.locks, context).toBeGreaterThan(0);
    expect(c.envEpisodes, context).toBeGreaterThan(0);
    expect(c.uiReads, context).toBeGreaterThan(0);
    expect(c.jobsSucceeded, context).toBe(c.jobs);
    expect(report.audit.lanceRows, context).toBe(report.audit.steps);
  }, 360_000);
});

describe("the soak's schedule", () => {
  it("is fixed by its length and seed, and holds every fault at least once", () => {
    const options = { minutes: 1, seed: 5, leaseMs: 6_000, sampleLines: 300 };
    const plan = planSoak(options);
    expect(planSoak(options)).toEqual(plan);
    expect(planSoak({ ...options, seed: 6 }).fingerprint).not.toBe(plan.fingerprint);
    const counts = planCounts(plan);
    for (const kind of ["run", "import", "teacher", "kill", "pause", "disk-full", "lock"] as const)
      expect(counts[kind], kind).toBeGreaterThan(0);
    // The first two runs share their preset and seed: their curricula generate the same task ids.
    const [first, second] = plan.events.filter((e) => e.kind === "run");
    expect(first).toMatchObject({ preset: second && "preset" in second ? second.preset : -1, seed: 1 });
    // Pauses outlast the lease; events stay inside the load.
    for (const e of plan.events) {
      expect(e.at).toBeGreaterThanOrEqual(0);
      expect(e.at).toBeLessThan(plan.loadMs);
      if (e.kind === "pause") expect(e.ms).toBeGreaterThan(options.leaseMs);
    }
    expect(planCounts(planSoak({ ...options, minutes: 5 })).kill).toBeGreaterThan(counts.kill);
  });
});
