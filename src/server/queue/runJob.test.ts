import { afterEach, beforeEach, expect, it } from "vitest";
import { createRunRow } from "../../../tests/helpers/runRow";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { enqueue } from "./queue";

describeEachDatabase("what a starting run's job is doing", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("says how many jobs are ahead of a queued run, then the worker's message, and nothing once it ended", async () => {
    const viewer = createCaller(signedIn(t.db, "viewer"));
    const first = await createRunRow(t.db, { status: "queued" });
    const second = await createRunRow(t.db, { status: "queued" });
    const firstJob = await enqueue(t.db, "train", { runId: first.id });
    // Created a moment later, so that the order by creation time is certain.
    await new Promise((r) => setTimeout(r, 5));
    const secondJob = await enqueue(t.db, "train", { runId: second.id });

    expect(await viewer.jobs.forRun({ runId: second.id })).toMatchObject({ status: "queued", ahead: 1 });
    expect(await viewer.jobs.forRun({ runId: first.id })).toMatchObject({ status: "queued", ahead: 0 });

    await t.db.job.update({
      where: { id: firstJob.id },
      data: { status: "running", startedAt: new Date(), message: "setting up: loading the domain" },
    });
    expect(await viewer.jobs.forRun({ runId: second.id })).toMatchObject({ ahead: 0 });
    expect(await viewer.jobs.forRun({ runId: first.id })).toMatchObject({
      status: "running",
      message: "setting up: loading the domain",
    });

    await t.db.job.update({ where: { id: secondJob.id }, data: { status: "cancelled" } });
    expect(await viewer.jobs.forRun({ runId: second.id })).toBeNull();
    expect(await viewer.jobs.forRun({ runId: "no-such-run" })).toBeNull();
  });
});
