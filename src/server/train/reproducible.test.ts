import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { type IterationReport, type RunResult, runTraining } from "@/core/train/run";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { collectOffline } from "../collect/collectOffline";
import { DEMO_COLLECTIONS } from "../demo/seedDemo";
import { runDeps } from "./runDeps";

/**
 * The demo seed's shop collections (expert, noisy and random play), a fifth of the size: enough offline data for
 * retrieval to have near-ties to break, small enough for two databases and two runs in well under a minute.
 */
const COLLECTIONS = DEMO_COLLECTIONS.filter((c) => c.domain === "shop").map((c) => ({
  ...c,
  episodes: Math.ceil(c.episodes / 5),
}));

/** configs/quick/shop-dreamgym-grpo.json, shortened: four iterations, two of them evaluated. */
const CONFIG = parseRunConfig({
  ...JSON.parse(
    fs.readFileSync(
      path.resolve(import.meta.dirname, "../../../configs/quick/shop-dreamgym-grpo.json"),
      "utf8",
    ),
  ),
  iterations: 4,
  tasksPerBatch: 4,
  groupSize: 4,
  evaluation: { interval: 2, episodes: 20 },
});

interface Outcome {
  trajectoryIds: string[];
  stepIds: string[];
  iterations: ReturnType<typeof iterationRecord>[];
  result: RunResult;
}

/** What an iteration reports, and which demonstrations each synthetic step was grounded in. */
function iterationRecord(report: IterationReport) {
  const { episodes, state, ...metrics } = report;
  return {
    ...metrics,
    checkpoint: state.policy,
    episodes: episodes.map((e) => ({
      task: e.task.id,
      actions: e.steps.map((s) => s.action),
      next: e.steps.map((s) => s.next.text),
      rewards: e.steps.map((s) => s.reward),
      demonstrations: e.infos.map((info) => info?.demonstrationIds),
    })),
  };
}

/** A fresh database, seeded, then the run through the worker's own dependencies. */
async function seedAndRun(t: TestDb): Promise<Outcome> {
  for (const options of COLLECTIONS) await collectOffline(t.db, options);
  const trajectories = await t.db.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const steps = await t.db.step.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const iterations: Outcome["iterations"] = [];
  const deps = await runDeps(t.db, CONFIG);
  const result = await runTraining(CONFIG, {
    ...deps,
    onIteration: (report) => {
      iterations.push(iterationRecord(report));
    },
  }).finally(() => deps.close());
  return {
    trajectoryIds: trajectories.map((x) => x.id),
    stepIds: steps.map((x) => x.id),
    iterations,
    result,
  };
}

const dbs: TestDb[] = [];
beforeAll(async () => {
  dbs.push(await createTestDb(), await createTestDb());
  // runDeps reads the app's config (embedder, experience backend): point it at a folder of its own.
  process.env.DREAMGYM_DATA_DIR = dbs[0]!.dir;
});
afterAll(async () => {
  for (const t of dbs.splice(0)) await t.cleanup();
});

describe("a seeded run", () => {
  it("is the same, to the bit, in two fresh databases seeded the same way", async () => {
    const [a, b] = [await seedAndRun(dbs[0]!), await seedAndRun(dbs[1]!)];

    expect(a.trajectoryIds.length).toBeGreaterThan(0);
    expect.soft(b.trajectoryIds).toEqual(a.trajectoryIds);
    expect.soft(b.stepIds).toEqual(a.stepIds);
    // toEqual compares numbers with Object.is, and checkpoint weights are base64 of their float32 bits.
    expect.soft(b.iterations).toEqual(a.iterations);
    expect.soft(b.result.checkpoint).toEqual(a.result.checkpoint);
    const { seconds: _a, ...resultA } = a.result;
    const { seconds: _b, ...resultB } = b.result;
    expect.soft(resultB).toEqual(resultA);
    expect(a.iterations).toHaveLength(CONFIG.iterations);
    // The comparison covers retrieval: synthetic steps were grounded in the seeded offline steps.
    const grounded = a.iterations
      .flatMap((r) => r.episodes.flatMap((e) => e.demonstrations))
      .flatMap((ids) => (Array.isArray(ids) ? ids : []));
    expect(grounded.length).toBeGreaterThan(0);
    expect(a.stepIds).toEqual(expect.arrayContaining(grounded));
  }, 120_000);
});
