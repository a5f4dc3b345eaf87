import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { embeddedTaskGenerator } from "@/core/curriculum/embedded";
import { household } from "@/core/envs/household";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { parseRunConfig } from "@/core/train/config";
import { runTraining } from "@/core/train/run";
import { config as appConfig } from "@/env";
import { createHouseholdOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { createHandlers } from "../../../worker/handlers";
import { claim } from "../queue/queue";
import { runOneJob } from "../queue/worker";
import { createEmbedder } from "../replay/createEmbedder";
import { offlineBuffer } from "../replay/offlineBuffer";
import { createRun, recordIteration } from "./runStore";

let t: TestDb;
beforeEach(async () => {
  t = await createHouseholdOfflineDb(10);
});
afterEach(async () => {
  await t.cleanup();
});

const config = parseRunConfig({
  method: "dreamgym",
  domain: "household",
  iterations: 3,
  tasksPerBatch: 2,
  groupSize: 3,
  seedTasks: 10,
  evaluation: { interval: 2, episodes: 4 },
});
const work = () => workOnce(t.db);

async function assertConsistent(runId: string) {
  const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect(run.status).toBe("succeeded");
  expect(run.iteration).toBe(3);
  const metrics = await t.db.runMetric.findMany({ where: { runId }, orderBy: { iteration: "asc" } });
  expect(metrics.map((m) => m.iteration)).toEqual([1, 2, 3]);
  expect(metrics[1]!.realSuccess).not.toBeNull(); // evaluated at iteration 2
  for (const iteration of [1, 2, 3]) {
    expect(await t.db.trajectory.count({ where: { runId, iteration } })).toBe(6); // 2 tasks × group of 3, once
    expect(await t.db.taskStat.count({ where: { runId, iteration } })).toBe(2);
  }
  const synthetic = await t.db.trajectory.aggregate({ where: { runId }, _sum: { length: true } });
  expect(run.syntheticTransitions).toBe(synthetic._sum.length);
  expect(run.realTransitions).toBe(0);
  expect(await t.db.checkpoint.count({ where: { runId } })).toBe(1);
  const step = await t.db.step.findFirstOrThrow({ where: { trajectory: { runId } } });
  expect(step.model).toBe("retrieval-exp-v1");
  expect(step.realNextState).not.toBeNull();
  return run;
}

describe("training runs in the worker", () => {
  it("run a config to the end, recording metrics, task statistics, rollouts and the latest checkpoint", async () => {
    const { runId } = await createRun(t.db, config);
    expect(await work()).toBe(true);
    const run = await assertConsistent(runId);
    expect(run.result).toMatchObject({ method: "dreamgym", iterations: 3, realTransitions: 0 });
    // The worker indexed the run's rollouts into the replay buffer as part of the job: none left waiting.
    expect(await t.db.step.count({ where: { trajectory: { runId } } })).toBeGreaterThan(0);
    expect(await t.db.step.count({ where: { trajectory: { runId }, indexedAt: null } })).toBe(0);
  });

  it("resume after a crash mid-iteration, losing and duplicating nothing", async () => {
    const { runId } = await createRun(t.db, config);
    const domain = household;
    // A first worker finishes iteration 1, writes iteration 2's rollouts, and dies before its checkpoint.
    const crash = new Error("worker died");
    await expect(
      runTraining(config, {
        domain,
        // The buffer the worker builds when it resumes: the same rows, the configured embedder.
        buffer: await offlineBuffer(t.db, "household", await createEmbedder(appConfig())),
        model: new RetrievalExperienceModel({ reasoning: true }),
        generator: embeddedTaskGenerator("household"),
        onIteration: async (report) => {
          if (report.iteration === 1) {
            await recordIteration(t.db, runId, config, domain, report);
            return;
          }
          await t.db.trajectory.create({
            data: {
              taskId: report.episodes[0]!.task.id,
              domain: "household",
              source: "synthetic",
              runId,
              iteration: 2,
            },
          });
          throw crash;
        },
      }),
    ).rejects.toThrow("worker died");
    expect(await t.db.trajectory.count({ where: { runId, iteration: 2 } })).toBe(1);
    // The run's job now runs in a worker: it discards the half-written iteration 2 and resumes after iteration 1.
    expect(await work()).toBe(true);
    await assertConsistent(runId);
  });

  it("hand the run back when the worker shuts down, so that the next worker finishes it at once", async () => {
    const { runId, jobId } = await createRun(t.db, config);
    const stopping = new AbortController();
    // SIGTERM arrives once the first iteration is recorded.
    const watch = setInterval(async () => {
      const run = await t.db.run.findUnique({ where: { id: runId } });
      if ((run?.iteration ?? 0) >= 1) stopping.abort();
    }, 20);
    const handed = await runOneJob({
      db: t.db,
      workerId: "first",
      handlers: createHandlers(),
      leaseMs: 60_000,
      heartbeatMs: 1_000,
      stopping: stopping.signal,
    });
    clearInterval(watch);
    expect(handed).toBe(true);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    // Back in the queue, claimable now, and the attempt not counted against it.
    expect(job).toMatchObject({ status: "queued", lockedBy: null, leaseUntil: null, attempts: 0 });
    expect(job.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("queued");
    expect(run.error).toBeNull();
    expect(run.iteration).toBeGreaterThanOrEqual(1);
    expect(run.iteration).toBeLessThan(3);
    expect(await work()).toBe(true);
    await assertConsistent(runId);
  });

  it("survive five worker crashes (kill -9) and end with the same result as a run that never stopped", async () => {
    // Room for five crashes that each record an iteration or two.
    const long = parseRunConfig({ ...config, iterations: 12 });
    const { runId, jobId } = await createRun(t.db, long);
    let recorded = 0;
    for (let crash = 1; crash <= 5; crash++) {
      // Each worker checkpoints at least one more iteration, then is killed with the job's lease still held.
      const child = spawnSync(
        process.execPath,
        ["--import", "tsx", path.join("tests", "helpers", "crashingWorker.ts")],
        {
          env: {
            ...process.env,
            DATABASE_URL: t.url,
            DREAMGYM_DATA_DIR: t.dir,
            LEASE_MS: "300",
          },
          encoding: "utf8",
        },
      );
      expect(child.signal, `crash ${crash}: ${child.stderr}`).toBe("SIGKILL");
      // Progress that survives the crash is the checkpoint's: each attempt's first iteration is one.
      const now = (await t.db.checkpoint.findFirstOrThrow({ where: { runId } })).iteration;
      expect(now, `crash ${crash}`).toBeGreaterThan(recorded);
      recorded = now;
      await new Promise((resolve) => setTimeout(resolve, 350)); // its lease runs out
    }
    expect(await work()).toBe(true);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "succeeded", crashes: 5, attempts: 1 });
    const crashed = await t.db.run.findUniqueOrThrow({ where: { id: runId } });

    // The same run, never interrupted, in a database seeded the same way.
    const fresh = await createHouseholdOfflineDb(10);
    try {
      const other = await createRun(fresh.db, long);
      await runOneJob({
        db: fresh.db,
        workerId: "w",
        handlers: createHandlers(),
        leaseMs: 60_000,
        heartbeatMs: 1_000,
      });
      const clean = await fresh.db.run.findUniqueOrThrow({ where: { id: other.runId } });
      const { seconds: _a, ...crashedResult } = crashed.result as Record<string, unknown>;
      const { seconds: _b, ...cleanResult } = clean.result as Record<string, unknown>;
      expect(crashedResult).toEqual(cleanResult);
      expect(crashed.syntheticTransitions).toBe(clean.syntheticTransitions);
      // Nothing written twice: one group of trajectories per iteration and task.
      for (let iteration = 1; iteration <= 6; iteration++)
        expect(await t.db.trajectory.count({ where: { runId, iteration } })).toBe(6);
    } finally {
      await fresh.cleanup();
    }
  }, 180_000);

  it("write nothing more once another worker holds the job (split brain: a live worker whose lease ran out)", async () => {
    const long = parseRunConfig({ ...config, iterations: 40 });
    const { runId, jobId } = await createRun(t.db, long);
    // Worker A never heartbeats (as if its beats were starved), so its 300 ms lease runs out while it computes.
    // (Its progress reports, which would beat at once, are dropped too.)
    const train = createHandlers().train!;
    const a = runOneJob({
      db: t.db,
      workerId: "A",
      handlers: { train: (payload, ctx) => train(payload, { ...ctx, progress: () => {} }) },
      leaseMs: 300,
      heartbeatMs: 600_000,
    });
    while (((await t.db.run.findUnique({ where: { id: runId } }))?.iteration ?? 0) < 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 350));
    const other = await t.connectAgain();
    const b = await claim(other, "B", 60_000, ["train"]);
    expect(b?.id).toBe(jobId);
    const counts = async () => ({
      trajectories: await t.db.trajectory.count({ where: { runId } }),
      steps: await t.db.step.count({ where: { trajectory: { runId } } }),
      metrics: await t.db.runMetric.count({ where: { runId } }),
      taskStats: await t.db.taskStat.count({ where: { runId } }),
      iteration: (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).iteration,
    });
    const atTakeover = await counts();
    expect(await a).toBe(true);
    // A stopped at its next write: not a row more, and the run and the job are B's to finish.
    expect(await counts()).toEqual(atTakeover);
    expect(atTakeover.iteration).toBeLessThan(40);
    expect(atTakeover.trajectories).toBe(atTakeover.iteration * 6);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "running", lockedBy: "B" });
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("running");
  }, 120_000);
});
