/**
 * Whole DreamGym runs, in the worker, whose experience model and task generator are an endpoint that fails at
 * random (issue 16): the run either finishes, with every unusable reply stored as an invalid step with its raw text
 * and parse error, or stops with an error that names the endpoint and what it answered. What the database holds
 * is checked against what the fake endpoint really served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/core/curriculum/generator";
import { RAW_REPAIR_SEPARATOR } from "@/core/experience/openaiModel";
import { parseRunConfig } from "@/core/train/config";
import { createRun } from "@/server/train/runStore";
import {
  type FakeHandler,
  type FakeOpenAI,
  rateLimited,
  type ServedReply,
  serverError,
  startFakeOpenAI,
} from "./helpers/fakeOpenAIServer";
import {
  contentOf,
  FAULT_KINDS,
  faultyHandler,
  isRepair,
  seededRandom,
  servedKind,
  tally,
} from "./helpers/faultyEndpoint";
import { goodReply } from "./helpers/goodReplies";
import { useOpenaiConfig } from "./helpers/openaiConfig";
import { createHouseholdOfflineDb, type TestDb } from "./helpers/testDb";
import { workOnce } from "./helpers/worker";

const MAX_RETRIES = 10;
const CONCURRENCY = 8;
const EXPERIENCE_MODEL = "exp";
const GENERATOR_MODEL = "gen";

/** One endpoint for the whole file (the app's config is read once); each test sets how it answers. */
let handler: FakeHandler = goodReply;
let endpoint: FakeOpenAI;
let t: TestDb;
let openaiConfig: { restore(): void } | undefined;

beforeAll(async () => {
  endpoint = await startFakeOpenAI((request) => handler(request));
  openaiConfig = useOpenaiConfig({
    baseURL: endpoint.url,
    // Far past the fake endpoint's answer, so that only a hang times out (the exact counts rely on it).
    timeoutMs: 1_000,
    maxRetries: MAX_RETRIES,
    backoffMs: 1,
    concurrency: CONCURRENCY,
    models: { experience: EXPERIENCE_MODEL, taskGenerator: GENERATOR_MODEL },
  });
  t = await createHouseholdOfflineDb(10);
});

afterAll(async () => {
  await t?.cleanup();
  await endpoint?.close();
  openaiConfig?.restore();
});

const config = parseRunConfig({
  method: "dreamgym",
  domain: "household",
  iterations: 3,
  tasksPerBatch: 3,
  groupSize: 4,
  seedTasks: 10,
  // No sim-to-real evaluation: its synthetic episodes call the endpoint too, but store no steps to count.
  evaluation: { interval: 3, episodes: 4, simulated: 0 },
  rollouts: { concurrency: CONCURRENCY },
  backends: { experience: "openai", taskGenerator: "openai" },
  curriculum: { taskGeneration: true },
});

/** A run in the worker, with one attempt: it ends succeeded or failed, never back in the queue. */
async function runOnce() {
  const { runId, jobId } = await createRun(t.db, config);
  await t.db.job.update({ where: { id: jobId }, data: { maxAttempts: 1 } });
  const from = endpoint.served.length;
  await workOnce(t.db);
  const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
  return { run, job, runId, served: () => endpoint.served.slice(from) };
}

/** Waits until the endpoint has had no request for `quietMs`: episodes still in flight when a run fails end. */
async function settle(quietMs: number) {
  let seen = -1;
  while (seen !== endpoint.requests.length || endpoint.inFlight() > 0) {
    seen = endpoint.requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

const byModel = (served: readonly ServedReply[], model: string) =>
  served.filter((s) => s.request.body.model === model);
/** Replies the client read: content (usable or not) that reached it. */
const answered = (s: ServedReply) => s.delivered && contentOf(s) !== undefined;

/**
 * Every stored step of the run against the replies served: each raw text is one the endpoint sent to the
 * experience model; a step whose last reply was unusable is invalid, with a parse error, no reward and no success;
 * no step is valid whose reply was not a good one. Returns what it counted.
 */
async function checkStoredSteps(runId: string, served: readonly ServedReply[]) {
  const good = new Set<string>();
  const unusable = new Set<string>();
  for (const s of byModel(served, EXPERIENCE_MODEL).filter(answered)) {
    (servedKind(s) === "good" ? good : unusable).add(contentOf(s) ?? "");
  }
  const steps = await t.db.step.findMany({
    where: { trajectory: { runId } },
    select: { id: true, valid: true, raw: true, parseError: true, reward: true, success: true },
  });
  let invalid = 0;
  let repaired = 0;
  for (const step of steps) {
    expect(step.raw, step.id).not.toBeNull();
    const parts = (step.raw ?? "").split(RAW_REPAIR_SEPARATOR);
    expect(parts.length, step.id).toBeLessThanOrEqual(2);
    if (parts.length === 2) {
      expect(unusable.has(parts[0] ?? ""), `first reply of a repaired step ${step.id}`).toBe(true);
      repaired += 1;
    }
    const last = parts.at(-1) ?? "";
    if (good.has(last)) {
      expect(step.parseError, step.id).toBeNull();
      continue;
    }
    expect(unusable.has(last), `step ${step.id}'s raw text was served: ${last}`).toBe(true);
    expect(step, step.id).toMatchObject({ valid: false, reward: 0, success: false });
    expect(step.parseError, step.id).toMatch(/malformed|truncated|cut off/);
    invalid += 1;
  }
  expect(
    await t.db.step.count({ where: { trajectory: { runId }, valid: true, parseError: { not: null } } }),
  ).toBe(0);
  return { steps: steps.length, invalid, repaired };
}

/** Generated tasks of the run: each one's goal was offered by a good reply of the task generator. */
async function checkGeneratedTasks(runId: string, served: readonly ServedReply[]) {
  const offered = new Set<string>();
  for (const s of byModel(served, GENERATOR_MODEL).filter(answered)) {
    if (servedKind(s) !== "good") continue;
    for (const goal of (JSON.parse(contentOf(s) ?? "{}") as { goals: unknown[] }).goals)
      offered.add(canonicalJson(goal));
  }
  const tasks = await t.db.task.findMany({ where: { runId, origin: "generated" } });
  for (const task of tasks) expect(offered.has(canonicalJson(task.goal)), task.id).toBe(true);
  return tasks.length;
}

describe("a DreamGym run against an endpoint that fails at random", () => {
  it("finishes, with every unusable reply stored as an invalid step with its raw text, as many as were served", async () => {
    // 45% of requests fail: 429, 500, hang and reset once each in eight, malformed and truncated JSON twice each.
    handler = faultyHandler(goodReply, {
      rate: 0.45,
      random: seededRandom(16),
      weights: { malformed: 2, truncated: 2 },
    });
    const { run, runId, served: servedSince } = await runOnce();
    expect(run.status, run.error ?? "").toBe("succeeded");
    const served = servedSince();
    expect(new Set(served.map((s) => s.request.body.model))).toEqual(
      new Set([EXPERIENCE_MODEL, GENERATOR_MODEL]),
    );
    const experience = byModel(served, EXPERIENCE_MODEL);
    const generator = byModel(served, GENERATOR_MODEL);
    const stored = await checkStoredSteps(runId, served);

    // One prediction per stored step, and each reply the model read is accounted for.
    const firstRound = experience.filter((s) => answered(s) && !isRepair(s.request));
    const repairRound = experience.filter((s) => answered(s) && isRepair(s.request));
    const unusableAfterRepair = repairRound.filter((s) => servedKind(s) !== "good").length;
    expect(stored.steps).toBe(firstRound.length);
    expect(stored.repaired).toBe(repairRound.length);
    expect(stored.repaired).toBe(firstRound.filter((s) => servedKind(s) !== "good").length);
    expect(stored.invalid).toBe(unusableAfterRepair);
    expect(stored.steps).toBe(run.syntheticTransitions);

    // The client's own account agrees with the endpoint's: every fault that was not an answer cost one retry.
    const notAnswered = served.filter((s) => !answered(s)).length;
    const generatorUnusable = generator.filter(
      (s) => answered(s) && isRepair(s.request) && servedKind(s) !== "good",
    ).length;
    const llm = (run.result as { llm: Record<string, number> }).llm;
    expect(llm).toMatchObject({
      requests: served.length,
      retries: notAnswered,
      failures: 0,
      invalidReplies: unusableAfterRepair + generatorUnusable,
    });

    const generated = await checkGeneratedTasks(runId, served);
    const faults = tally(served);
    console.log(
      `run ${run.status}: ${served.length} requests served ${JSON.stringify(faults)}; ` +
        `experience model: ${experience.length} requests, ${stored.steps} steps stored, ${stored.repaired} repaired, ` +
        `${stored.invalid} stored invalid; task generator: ${generator.length} requests, ${generatorUnusable} unusable ` +
        `after repair, ${generated} generated tasks stored; client: ${llm.retries} retries, ` +
        `${llm.invalidReplies} invalid replies`,
    );
    // The seeded faults reach every branch: each kind served, steps repaired, steps stored invalid, tasks written.
    for (const kind of FAULT_KINDS) expect(faults[kind], kind).toBeGreaterThan(0);
    expect(stored.invalid).toBeGreaterThan(0);
    expect(stored.repaired).toBeGreaterThan(stored.invalid);
    expect(generated).toBeGreaterThan(0);
  }, 60_000);

  it("stops with an error naming the endpoint and its status when it always answers 500, starting no more episodes", async () => {
    handler = () => serverError(500);
    const { run, job, runId, served } = await runOnce();
    expect(run.status).toBe("failed");
    expect(run.error).toContain(endpoint.url);
    expect(run.error).toMatch(/\b500\b/);
    expect(run.error).toContain(`after ${MAX_RETRIES + 1} attempts`);
    expect(job).toMatchObject({ status: "failed", error: run.error });
    expect(await t.db.step.count({ where: { trajectory: { runId } } })).toBe(0);
    expect(await t.db.task.count({ where: { runId } })).toBe(0);
    await settle(800);
    // The episodes in flight when the first one failed finish their attempts; no queued episode starts.
    expect(served().length).toBeLessThanOrEqual(CONCURRENCY * (MAX_RETRIES + 1));
    console.log(`always 500: run ${run.status} after ${served().length} requests: ${run.error}`);
  }, 60_000);

  it("stops with a named error when the endpoint starts rate limiting for good, keeping what it stored before", async () => {
    handler = faultyHandler(goodReply, {
      rate: 0.45,
      random: seededRandom(17),
      weights: { malformed: 2, truncated: 2 },
    });
    // Once the first iteration is recorded, every answer is a 429.
    let down = false;
    const watch = setInterval(async () => {
      const running = await t.db.run.findFirst({ where: { status: "running" } });
      if (running && running.iteration >= 1 && !down) {
        down = true;
        handler = () => rateLimited(0);
      }
    }, 20);
    const { run, runId, served } = await runOnce().finally(() => clearInterval(watch));
    expect(down).toBe(true);
    expect(run.status).toBe("failed");
    expect(run.iteration).toBeGreaterThanOrEqual(1);
    expect(run.error).toContain(endpoint.url);
    expect(run.error).toMatch(/\b429\b/);
    await settle(800);
    const stored = await checkStoredSteps(runId, served());
    expect(stored.steps).toBeGreaterThan(0);
    console.log(
      `rate limited after iteration ${run.iteration}: run ${run.status}, ${stored.steps} steps stored ` +
        `(${stored.invalid} invalid): ${run.error}`,
    );
  }, 60_000);
});
