import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { createCaller } from "../root";
import { signedIn } from "../testing";

describeEachDatabase("runs router", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("refuses a bad config with field-level errors and queues nothing", async () => {
    const caller = createCaller(signedIn(t.db));
    const error = await caller.runs
      .create({ method: "dreamgym", domain: "shop", groupSize: 1 } as never)
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/groupSize/);
    expect(await t.db.run.count()).toBe(0);
    expect(await t.db.job.count()).toBe(0);
  });

  it("launches a run as a worker job, cancels it and resumes it", async () => {
    const caller = createCaller(signedIn(t.db));
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

  it("lists the final real-env success and planned iterations, and compares runs' curves in the order asked", async () => {
    const caller = createCaller(signedIn(t.db));
    const a = await caller.runs.create({ method: "dreamgym", domain: "shop", iterations: 3 } as never);
    const b = await caller.runs.create({
      method: "real",
      domain: "shop",
      iterations: 5,
      realTransitions: 800,
    } as never);
    const s2r = await caller.runs.create({
      method: "dreamgym-s2r",
      domain: "shop",
      iterations: 10,
      realTransitions: 1000,
    } as never);
    const bc = await caller.runs.create({ method: "bc", domain: "shop" } as never);
    await t.db.runMetric.createMany({
      data: [
        { runId: a.runId, iteration: 2, syntheticSuccess: 0.5, realSuccess: 0.4, realTransitions: 0 },
        { runId: a.runId, iteration: 1, syntheticSuccess: 0.25, meanReward: 0.3 },
        { runId: b.runId, iteration: 1, realSuccess: 0.1, realTransitions: 120 },
      ],
    });
    await t.db.run.update({
      where: { id: a.runId },
      data: {
        status: "succeeded",
        result: {
          untrained: { successRate: 0.05, meanReward: 0.1, episodes: 50, transitions: 400 },
          final: { successRate: 0.62, meanReward: 0.7, episodes: 50, transitions: 300 },
        },
      },
    });

    const listed = await caller.runs.list({});
    expect(listed.find((r) => r.id === a.runId)).toMatchObject({
      finalRealSuccess: 0.62,
      untrainedRealSuccess: 0.05,
      plannedIterations: 3,
      // Synthetic only: no real budget to spend.
      realBudget: null,
    });
    expect(listed.find((r) => r.id === b.runId)).toMatchObject({
      finalRealSuccess: null,
      // A real-env run stops at its budget or its iteration cap, whichever comes first: no count is known ahead.
      plannedIterations: null,
      realBudget: 800,
    });
    // S2R's length is its synthetic iterations plus however many real ones its budget takes.
    expect(listed.find((r) => r.id === s2r.runId)).toMatchObject({
      plannedIterations: null,
      realBudget: 1000,
    });
    // Behaviour cloning does not iterate: no "it 0/20" for it.
    expect(listed.find((r) => r.id === bc.runId)).toMatchObject({ algorithm: "bc", plannedIterations: null });
    expect((await caller.runs.get({ id: a.runId })).finalRealSuccess).toBe(0.62);

    const compared = await caller.runs.compare({ ids: [b.runId, a.runId, b.runId] });
    expect(compared.map((r) => r.id)).toEqual([b.runId, a.runId]);
    expect(compared[1]?.metrics.map((m) => [m.iteration, m.syntheticSuccess, m.realSuccess])).toEqual([
      [1, 0.25, null],
      [2, 0.5, 0.4],
    ]);
    expect(compared[0]).toMatchObject({
      method: "real",
      finalRealSuccess: null,
      plannedIterations: null,
      realBudget: 800,
      progress: 0,
    });
    expect(compared[1]).toMatchObject({ finalRealSuccess: 0.62, plannedIterations: 3, realBudget: null });
  });

  it("refuses to compare nothing or unknown runs, naming them", async () => {
    const caller = createCaller(signedIn(t.db));
    const { runId } = await caller.runs.create({ method: "dreamgym", domain: "shop" } as never);
    await expect(caller.runs.compare({ ids: [] })).rejects.toThrow(/Pick at least one run/);
    await expect(caller.runs.compare({ ids: [runId, "ghost"] })).rejects.toThrow("No run with id ghost");
  });

  it("records who launched a run, keeps its notes and tags, and lets only those who may launch change them", async () => {
    const caller = createCaller(signedIn(t.db, "researcher", "rosa@test.local"));
    const { runId } = await caller.runs.create({
      method: "dreamgym",
      domain: "shop",
      iterations: 2,
    } as never);
    expect(await caller.runs.get({ id: runId })).toMatchObject({
      createdBy: "rosa@test.local",
      notes: null,
      tags: [],
    });

    // Tags are trimmed and kept once each, in the order given; what is not sent stays.
    await caller.runs.annotate({ id: runId, tags: [" baseline", "kl", "baseline "] });
    await caller.runs.annotate({ id: runId, notes: "KL spikes at iteration 2" });
    const [listed] = await caller.runs.list({});
    expect(listed).toMatchObject({ tags: ["baseline", "kl"], notes: "KL spikes at iteration 2" });
    // Blank notes are no notes.
    await caller.runs.annotate({ id: runId, notes: "   " });
    expect((await caller.runs.get({ id: runId })).notes).toBeNull();

    await expect(caller.runs.annotate({ id: runId, tags: ["a,b"] })).rejects.toThrow(/comma/);
    await expect(
      caller.runs.annotate({ id: runId, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
    ).rejects.toThrow(/at most 20 tags/);
    await expect(caller.runs.annotate({ id: "ghost", notes: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const viewer = createCaller(signedIn(t.db, "viewer"));
    await expect(viewer.runs.annotate({ id: runId, tags: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await caller.runs.get({ id: runId })).tags).toEqual(["baseline", "kl"]);

    // A comparison carries each run's config, for its config diff, and its metrics' clock and update figures.
    const [compared] = await caller.runs.compare({ ids: [runId] });
    expect(compared?.config).toMatchObject({ method: "dreamgym", iterations: 2 });
    expect(compared).toHaveProperty("startedAt");
  });
});
