import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { workOnce } from "../../../../tests/helpers/worker";
import { importTrajectoriesFile } from "../../trajectories/importTrajectories";
import { createCaller } from "../root";
import { signedIn } from "../testing";

const sample = (name: string) => path.join(process.cwd(), "samples", name);

describeEachDatabase("domains router and launching in an imported domain", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("lists the built-in domains, then imported ones with their logged tasks and whether they can be trained on", async () => {
    const caller = createCaller(signedIn(t.db));
    expect((await caller.domains.list()).map((d) => d.name)).toEqual(["shop", "household"]);
    await importTrajectoriesFile(t.db, sample("web-admin.jsonl"));
    await importTrajectoriesFile(t.db, sample("web-navigation.jsonl"));
    const listed = await caller.domains.list();
    const admin = listed.find((d) => d.name === "web-admin");
    expect(admin).toMatchObject({ kind: "imported", trainable: true, reason: null });
    expect(admin!.trainTasks).toBeGreaterThan(admin!.testTasks!);
    // Six trajectories are enough to step through and annotate, not to train and evaluate on.
    const web = listed.find((d) => d.name === "web");
    expect(web).toMatchObject({ kind: "imported", trainable: false });
    expect(web!.reason).toMatch(/training needs at least 4 and 2/);
  });

  it("launches DreamGym in a trainable imported domain and refuses what cannot run there, queueing nothing", async () => {
    const caller = createCaller(signedIn(t.db));
    await importTrajectoriesFile(t.db, sample("web-admin.jsonl"));
    const refused = async (config: Record<string, unknown>) =>
      String(await caller.runs.create(config as never).catch((e: unknown) => e));
    expect(await refused({ method: "dreamgym", domain: "moon" })).toMatch(/unknown domain "moon"/);
    expect(await refused({ method: "real", domain: "web-admin" })).toMatch(/has none \(only its logs\)/);
    expect(await refused({ method: "dreamgym-s2r", domain: "web-admin" })).toMatch(
      /trains in a real environment/,
    );
    // The LLM judge: only where there is no real success, and only with an endpoint to ask (none here).
    expect(await refused({ method: "dreamgym", domain: "shop", evaluation: { judge: true } })).toMatch(
      /the outcome judge is a proxy for imported domains; shop is built in/,
    );
    expect(await refused({ method: "dreamgym", domain: "web-admin", evaluation: { judge: true } })).toMatch(
      /the LLM judge needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL/,
    );
    expect(await t.db.run.count()).toBe(0);
    expect(await t.db.job.count()).toBe(0);
    const { runId } = await caller.runs.create({
      method: "dreamgym",
      domain: "web-admin",
      iterations: 2,
    } as never);
    const run = await caller.runs.get({ id: runId });
    expect(run).toMatchObject({ domain: "web-admin", status: "queued", finalRealSuccess: null, proxy: null });
  });

  it("runs it in the worker: the metrics and the run page's figures are proxies, never real success", async () => {
    const caller = createCaller(signedIn(t.db));
    await importTrajectoriesFile(t.db, sample("web-admin.jsonl"));
    const { runId } = await caller.runs.create({
      method: "dreamgym",
      domain: "web-admin",
      iterations: 2,
      tasksPerBatch: 2,
      groupSize: 2,
      evaluation: { interval: 1, episodes: 3 },
    } as never);
    await workOnce(t.db);
    const run = await caller.runs.get({ id: runId });
    expect(run.status).toBe("succeeded");
    expect(run).toMatchObject({ finalRealSuccess: null, untrainedRealSuccess: null, finalSimSuccess: null });
    expect(run.proxy?.final?.syntheticSuccess).toBeGreaterThanOrEqual(0);
    expect(run.proxy?.final?.confidence).toBeGreaterThan(0);
    expect(run.metrics).toHaveLength(2);
    for (const m of run.metrics) {
      expect(m.realSuccess).toBeNull();
      expect(m.simSuccess).not.toBeNull();
      expect((m.extra as { proxy?: { agreementSteps: number } }).proxy?.agreementSteps).toBeGreaterThan(0);
    }
    // Its synthetic steps are stored without a real answer: there is no real environment to give one.
    const step = await t.db.step.findFirstOrThrow({ where: { trajectory: { runId } } });
    expect(step.realNextState).toBeNull();
  });
});
