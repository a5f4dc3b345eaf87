/**
 * A row and the job that works on it are written together or not at all. The database here refuses new jobs (as a
 * full disk does) and refuses to delete runs (so that a compensating delete after the fact would fail too, as it
 * did on a full disk): launching a run, resuming one and starting a regression check must then leave what was there
 * before, never a row that waits for a job that does not exist.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { DISK_FULL, refuseWrites } from "../../../tests/helpers/refuseWrites";
import { createOfflineDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import type { Db } from "../db";
import { startCheck } from "../regression/startCheck";
import type { Dialect } from "../sql/dialect";

/** PostgreSQL passes the trigger's message on; Prisma reports SQLite's RAISE as the constraint error it is coded as. */
const REFUSED = new RegExp(`${DISK_FULL}|constraint violated`);

/** From now on, every new job and every deletion of a run fails as on a full disk. */
async function refuseJobs(db: Db, dialect: Dialect): Promise<void> {
  await refuseWrites(db, dialect, "Job", "INSERT", "refuse_jobs");
  await refuseWrites(db, dialect, "Run", "DELETE", "refuse_run_deletes");
}

describeEachDatabase("a row and its job", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createOfflineDb("shop", 2, dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("a run whose job cannot be written is not created", async () => {
    const caller = createCaller(signedIn(t.db));
    await refuseJobs(t.db, dialect);
    await expect(
      caller.runs.create({ method: "dreamgym", domain: "shop", iterations: 2 } as never),
    ).rejects.toThrow(REFUSED);
    expect(await t.db.run.count()).toBe(0);
    expect(await t.db.job.count()).toBe(0);
  });

  it("a resume whose job cannot be written leaves the run as it was", async () => {
    const caller = createCaller(signedIn(t.db));
    const { runId } = await caller.runs.create({
      method: "dreamgym",
      domain: "shop",
      iterations: 2,
    } as never);
    await caller.runs.cancel({ id: runId });
    await refuseJobs(t.db, dialect);
    await expect(caller.runs.resume({ id: runId })).rejects.toThrow(REFUSED);
    expect((await caller.runs.get({ id: runId })).status).toBe("cancelled");
    expect(await t.db.job.count({ where: { status: "queued" } })).toBe(0);
  });

  it("a regression check whose job cannot be written is not created", async () => {
    await refuseJobs(t.db, dialect);
    const version = { backend: "embedded", k: 8, historyWindow: 4, reasoning: true } as const;
    await expect(startCheck(t.db, version, { domain: "shop", heldOut: 2 }, null)).rejects.toThrow(REFUSED);
    expect(await t.db.regressionCheck.count()).toBe(0);
  });
});
