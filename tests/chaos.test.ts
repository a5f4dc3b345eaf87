import { expect, it } from "vitest";
import { runChaos } from "../scripts/chaos/chaos";
import { SHORT_WAVE } from "../scripts/chaos/workload";
import { createPostgresTestDatabase, describeEachDatabase } from "./helpers/testDb";

/** The short form of `npm run chaos`: two real worker processes, real kill -9s, then every count checked. */
describeEachDatabase("chaos", (dialect) => {
  it("loses nothing and stores nothing twice while two workers are killed (kill -9) at random", async () => {
    // PostgreSQL: an empty database of its own, which the run migrates as a deployment would.
    const database = dialect === "postgresql" ? await createPostgresTestDatabase({ empty: true }) : undefined;
    try {
      const report = await runChaos({
        kills: 4,
        seed: 7,
        wave: SHORT_WAVE,
        gapMs: [1_500, 4_000],
        leaseMs: 1_500,
        timeoutMs: 8 * 60_000,
        ...(database ? { databaseUrl: database.url } : {}),
      });
      expect(report.problems).toEqual([]);
      expect(report.kills).toHaveLength(4);
      expect(report.jobs.succeeded).toBe(report.jobs.total);
      expect(report.counts.steps).toBeGreaterThan(0);
      expect(report.counts.lanceRows).toBe(report.counts.steps);
      expect(report.counts.lanceIds).toBe(report.counts.steps);
      expect(report.counts.metrics).toBe(report.expected.metrics);
      expect(report.counts.annotations).toBe(report.expected.annotations);
    } finally {
      await database?.drop();
    }
  }, 600_000);
});
