import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseRunConfig, type RunConfig } from "@/core/train/config";
import { collectOffline } from "@/server/collect/collectOffline";
import { registerRemoteDomain } from "@/server/remoteEnv/registry";
import { createRun } from "@/server/train/runStore";
import { type Helpdesk, startHelpdesk } from "../samples/envs/helpdesk/launch";
import { createTestDb, type TestDb } from "./helpers/testDb";
import { workOnce } from "./helpers/worker";

/**
 * DreamGym-S2R on a domain served by an outside process (the helpdesk sample, AgentGym's generic protocol): its
 * offline data is collected there, its real phase and its evaluations are played there, and the synthetic steps'
 * real answers come from there. kill -9 of the server in the middle of the real phase, and a restart on the same
 * port: the run waits, retries, and finishes with exactly what a run that was never interrupted records.
 */
let t: TestDb;
let server: Helpdesk;

const config: RunConfig = parseRunConfig({
  method: "dreamgym-s2r",
  domain: "helpdesk",
  iterations: 2,
  realTransitions: 240,
  tasksPerBatch: 4,
  groupSize: 4,
  seedTasks: 12,
  evaluation: { interval: 2, episodes: 8 },
  rollouts: { concurrency: 8 },
});

beforeAll(async () => {
  t = await createTestDb();
  server = await startHelpdesk({ latencyMs: 15 });
  await registerRemoteDomain(t.db, {
    name: "helpdesk",
    url: server.url,
    protocol: "agentgym",
    instructionPattern: "Ticket: (.*)",
    concurrency: 8,
    downAfterMs: 60_000,
  });
  await collectOffline(t.db, {
    domain: "helpdesk",
    policy: "random",
    episodes: 40,
    split: "train",
    epsilon: 0,
    seed: 1,
    offset: 0,
  });
}, 60_000);

afterAll(async () => {
  await server?.kill();
  await t?.cleanup();
});

/** What a run recorded, in an order and form that does not depend on ids or timing. */
async function recorded(runId: string) {
  const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  const metrics = await t.db.runMetric.findMany({ where: { runId }, orderBy: { iteration: "asc" } });
  const trajectories = await t.db.trajectory.findMany({
    where: { runId },
    include: { steps: { orderBy: { index: "asc" } } },
  });
  const episodes = trajectories
    .map((tr) =>
      JSON.stringify([
        tr.source,
        tr.iteration,
        tr.taskId,
        tr.success,
        tr.steps.map((s) => [s.action, s.nextState, s.reward, s.realNextState, s.realReward]),
      ]),
    )
    .sort();
  return {
    run,
    metrics: metrics.map((m) => [m.iteration, m.syntheticSuccess, m.realSuccess, m.realTransitions]),
    episodes,
    digest: createHash("sha256").update(episodes.join("\n")).digest("hex"),
  };
}

it("runs DreamGym-S2R against an outside environment, through a kill -9 of it, as if nothing happened", async () => {
  const calm = await createRun(t.db, config);
  expect(await workOnce(t.db)).toBe(true);
  const expected = await recorded(calm.runId);
  expect(expected.run.status, expected.run.error ?? "").toBe("succeeded");
  // The real phase and the evaluations were played in the outside environment.
  expect(expected.run.realTransitions).toBeGreaterThanOrEqual(240);
  expect(expected.metrics.some(([, , real]) => real !== null)).toBe(true);
  expect(expected.episodes.some((e) => e.startsWith('["real"'))).toBe(true);
  // Synthetic steps carry the outside environment's answer to the same actions.
  const answered = await t.db.step.count({
    where: { trajectory: { runId: calm.runId, source: "synthetic" }, realNextState: { not: null } },
  });
  expect(answered).toBeGreaterThan(0);

  const { runId } = await createRun(t.db, config);
  let finished = false;
  const job = workOnce(t.db).finally(() => {
    finished = true;
  });
  // Once the real phase has begun, the environment dies without a word, and comes back 2 s later on its port.
  let realAtKill: number | undefined;
  for (let i = 0; i < 600 && realAtKill === undefined; i++) {
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.realTransitions > 0) {
      await server.kill();
      realAtKill = run.realTransitions;
    } else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // It died while the run still had real steps to take in it.
  expect(realAtKill).toBeDefined();
  expect(realAtKill).toBeLessThan(expected.run.realTransitions);
  expect(finished).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  server = await startHelpdesk({ port: server.port, latencyMs: 15 });
  expect(await job).toBe(true);
  const got = await recorded(runId);
  expect(got.run.status, got.run.error ?? "").toBe("succeeded");
  // Nothing counted twice, nothing lost, no failure put on the policy: the very same run.
  expect(got.metrics).toEqual(expected.metrics);
  expect(got.episodes.length).toBe(expected.episodes.length);
  expect(got.digest).toBe(expected.digest);
}, 300_000);

it("fails a run whose outside environment stays down, with a message that names it", async () => {
  const gone = await startHelpdesk();
  const url = gone.url;
  await gone.kill();
  await registerRemoteDomain(
    t.db,
    { name: "helpdesk-gone", url, protocol: "agentgym", downAfterMs: 1_000 },
    { allowUnhealthy: true },
  );
  const { runId } = await createRun(t.db, { ...config, domain: "helpdesk-gone" });
  // The worker tries the job as often as a failing job is tried; each attempt waits out downAfterMs.
  for (let i = 0; i < 120; i++) {
    await workOnce(t.db);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status === "failed") break;
    // A failed attempt is tried again after a back-off.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  const jobs = await t.db.job.findMany({ where: { type: "train" } });
  expect(run.status, JSON.stringify({ run, jobs })).toBe("failed");
  expect(run.error).toContain(`remote environment "helpdesk-gone" at ${url}`);
  expect(run.error).toMatch(/has not answered for \d+ s/);
}, 120_000);
