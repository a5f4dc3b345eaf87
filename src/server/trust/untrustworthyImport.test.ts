/**
 * Logs the experience model cannot predict (every next state swapped with another step's), imported as a user
 * would (an upload's import job, into SQLite and LanceDB), then a short DreamGym run on them in the worker: the
 * import measures the model on the held-out logs and stores it, and the run's page data and the runs list say
 * that synthetic success cannot be trusted, and why. The same logs unshuffled pass the checks of the states.
 */

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTrustSummary } from "@/core/trust/summary";
import { shuffledNextStates } from "@/core/trust/testing";
import { MAX_HALLUCINATION, MIN_TOKEN_F1 } from "@/core/trust/verdict";
import { createCaller } from "@/server/api/root";
import { signedIn } from "@/server/api/testing";
import { enqueue } from "@/server/queue/queue";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { importTrustKey } from "./importTrust";

const SAMPLE = fs.readFileSync(path.join(process.cwd(), "samples", "web-admin.jsonl"), "utf8");
const DOMAIN = "admin-shuffled";
/** The verdict's sentences about the predicted states (verdict.ts: hallucination and token F1). */
const STATE_REASONS = /what the experience model showed|share only .* of their words/;

let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  process.env.DREAMGYM_DATA_DIR = t.dir;
  process.env.LANCEDB_DIR = path.join(t.dir, "lancedb");
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

/** A file imported by the import job, as an upload is: its job's result. */
async function importJob(name: string, content: string) {
  const file = path.join(t.dir, name);
  fs.writeFileSync(file, content);
  const job = await enqueue(t.db, "import", { path: file, name });
  await workOnce(t.db);
  const done = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
  expect(done.status).toBe("succeeded");
  return done;
}

describe("logs the experience model cannot predict", () => {
  it("are found untrustworthy at import, for the states it cannot predict, and stored for the domain", async () => {
    const job = await importJob("shuffled.jsonl", shuffledNextStates(SAMPLE, { seed: "s", domain: DOMAIN }));
    expect(job.message).toMatch(`${DOMAIN}: proxies untrustworthy`);
    const caller = createCaller(signedIn(t.db, "viewer"));
    const atImport = await caller.trust.domain({ domain: DOMAIN });
    expect(atImport?.summary.at).toBe("import");
    expect(atImport?.report.verdict.trustworthy).toBe(false);
    expect(atImport?.report.verdict.reasons.filter((r) => STATE_REASONS.test(r))).toHaveLength(2);
    expect(atImport?.report.fidelity.hallucinationRate).toBeGreaterThan(MAX_HALLUCINATION);
    expect(atImport?.report.fidelity.tokenF1).toBeLessThan(MIN_TOKEN_F1);
    // Every logged policy of the held-out logs has its row, with its own base rate.
    expect(Object.keys(atImport?.report.byPolicy ?? {}).sort()).toEqual(["expert", "noisy-0.3", "noisy-0.7"]);
  }, 120_000);

  it("while the same logs unshuffled pass the checks of the predicted states", async () => {
    const job = await importJob("web-admin.jsonl", SAMPLE);
    expect(job.message).toMatch(/web-admin: proxies (checked|untrustworthy)/);
    const stored = await t.db.setting.findUniqueOrThrow({ where: { key: importTrustKey("web-admin") } });
    const { summary } = stored.value as {
      summary: { hallucinationRate: number; tokenF1: number; reasons: string[] };
    };
    expect(summary.hallucinationRate).toBeLessThanOrEqual(MAX_HALLUCINATION);
    expect(summary.tokenF1).toBeGreaterThanOrEqual(MIN_TOKEN_F1);
    expect(summary.reasons.filter((r) => STATE_REASONS.test(r))).toEqual([]);
  }, 120_000);

  it("mark a run's synthetic success untrustworthy on its page data and in the runs list, saying why", async () => {
    const caller = createCaller(signedIn(t.db));
    const { runId } = await caller.runs.create({
      method: "dreamgym",
      domain: DOMAIN,
      iterations: 2,
      tasksPerBatch: 2,
      groupSize: 2,
      evaluation: { interval: 1, episodes: 6 },
    } as never);
    await workOnce(t.db);
    expect((await caller.runs.get({ id: runId })).status).toBe("succeeded");

    const view = await caller.trust.run({ id: runId });
    expect(view.latest?.at).toBe("final");
    expect(view.latest?.report.verdict.trustworthy).toBe(false);
    expect(view.latest?.report.verdict.reasons.filter((r) => STATE_REASONS.test(r))).toHaveLength(2);
    expect(view.untrainedSyntheticSuccess).not.toBeNull();
    expect(view.atImport?.report.verdict.trustworthy).toBe(false);

    const listed = (await caller.runs.list({})).find((r) => r.id === runId);
    expect(listed?.trust).toMatchObject({ trustworthy: false, at: "final" });
    expect(readTrustSummary(listed?.trust)?.reasons).toEqual(view.latest?.report.verdict.reasons);
    // Each evaluation stored its verdict beside its proxies; the run keeps the latest.
    const metrics = await t.db.runMetric.findMany({ where: { runId, simSuccess: { not: null } } });
    expect(metrics.length).toBe(2);
    for (const m of metrics)
      expect(
        (m.extra as { proxy?: { trust?: { verdict: { trustworthy: boolean } } } }).proxy?.trust?.verdict,
      ).toMatchObject({ trustworthy: false });
  }, 300_000);
});
