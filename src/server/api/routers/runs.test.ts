import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../../tests/helpers/testDb";
import { createCaller } from "../root";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

describe("runs router", () => {
  it("refuses a bad config with field-level errors and queues nothing", async () => {
    const caller = createCaller({ db: t.db });
    const error = await caller.runs
      .create({ method: "dreamgym", domain: "shop", groupSize: 1 } as never)
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/groupSize/);
    expect(await t.db.run.count()).toBe(0);
    expect(await t.db.job.count()).toBe(0);
  });

  it("launches a run as a worker job, cancels it and resumes it", async () => {
    const caller = createCaller({ db: t.db });
    const { runId, jobId } = await caller.runs.create({
      method: "dreamgym",
      domain: "shop",
      iterations: 2,
    } as never);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ type: "train", payload: { runId } });
    const [listed] = await caller.runs.list({});
    expect(listed).toMatchObject({
      id: runId,
      status: "queued",
      method: "dreamgym",
      domain: "shop",
      algorithm: "grpo",
    });

    expect(await caller.runs.cancel({ id: runId })).toEqual({ cancelled: 1 });
    expect((await t.db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("cancelled");

    expect((await caller.runs.get({ id: runId })).status).toBe("cancelled");
    const { jobId: again } = await caller.runs.resume({ id: runId });
    expect(again).not.toBe(jobId);
    await expect(caller.runs.resume({ id: runId })).rejects.toThrow(/already queued or running/);
    expect((await caller.runs.get({ id: runId })).status).toBe("queued");
  });
});
