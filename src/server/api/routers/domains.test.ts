import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { workOnce } from "../../../../tests/helpers/worker";
import { importTrajectoriesFile } from "../../trajectories/importTrajectories";
import { createCaller } from "../root";
import { signedIn } from "../testing";

const sample = (name: string) => path.join(process.cwd(), "samples", name);

/** The smallest AgentGym generic server: enough for a registration's health check and its reset of train task 0. */
function startAgentGym(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      const reply = (body: unknown) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method === "GET" && req.url === "/") return reply("This is environment Tickets.");
      if (req.method === "POST" && req.url === "/create") return reply({ id: 0 });
      if (req.method === "POST" && req.url === "/reset")
        return reply({
          observation: "Ticket: do X\nAvailable actions: [a, b]",
          reward: 0.0,
          done: false,
          available_actions: ["a", "b"],
        });
      if (req.method === "POST" && req.url === "/close") return reply(true);
      res.writeHead(404).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    }),
  );
}

/** A port nothing listens on: one the system gave out and took back. */
function closedPort(): Promise<number> {
  const server = http.createServer();
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

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
    expect((await caller.domains.list()).map((d) => d.name)).toEqual(["shop", "household", "office"]);
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
    expect(run).toMatchObject({
      domain: "web-admin",
      domainKind: "imported",
      status: "queued",
      finalRealSuccess: null,
      proxy: null,
    });
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

describeEachDatabase("domains router: remote environments", (dialect) => {
  let t: TestDb;
  let env: Awaited<ReturnType<typeof startAgentGym>>;
  beforeAll(async () => {
    env = await startAgentGym();
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const registration = () => ({
    name: "tickets",
    url: env.url,
    protocol: "agentgym" as const,
    token: "secret-token",
    concurrency: 2,
    instructionPattern: "Ticket: (.*)",
    tasks: { train: { first: 0, count: 20 }, test: { first: 20, count: 5 } },
  });

  it("registers an environment that answers, with its sample task, and lists it as a remote domain without its token", async () => {
    const caller = createCaller(signedIn(t.db, "researcher"));
    const { domain, health } = await caller.domains.register(registration());
    expect(health).toMatchObject({ ok: true, sample: { instruction: "do X", actions: 2 } });
    expect(domain).toMatchObject({ name: "tickets", source: "registered", hasToken: true, concurrency: 2 });
    // AgentGym sessions are kept open for the next episode, so /close need not come now.
    expect(env.requests).toEqual(expect.arrayContaining(["GET /", "POST /create", "POST /reset"]));

    const [remote] = await caller.domains.remote();
    expect(remote).toMatchObject({
      name: "tickets",
      url: env.url,
      protocol: "agentgym",
      protocolLabel: "AgentGym (generic text environment)",
      hasToken: true,
      tasks: { train: { first: 0, count: 20 }, test: { first: 20, count: 5 } },
      health: { ok: true },
    });
    expect(remote!.health!.at).toBeInstanceOf(Date);
    expect(JSON.stringify(remote)).not.toContain("secret-token");
    expect(await t.db.remoteDomain.findUniqueOrThrow({ where: { name: "tickets" } })).toMatchObject({
      createdBy: "researcher@test.local",
    });

    const listed = await caller.domains.list();
    expect(listed.find((d) => d.name === "tickets")).toMatchObject({
      kind: "remote",
      trainTasks: 20,
      testTasks: 5,
      trainable: true,
    });
    expect(JSON.stringify(listed)).not.toContain("secret-token");

    // Checked again on demand, the answer is kept as its last health.
    const before = remote!.health!.at;
    expect(await caller.domains.check({ name: "tickets" })).toMatchObject({ ok: true });
    const [after] = await caller.domains.remote();
    expect(after!.health!.at.getTime()).toBeGreaterThanOrEqual(before.getTime());
  });

  it("refuses an environment that does not answer, and an invalid registration, in a sentence, storing nothing", async () => {
    const caller = createCaller(signedIn(t.db, "researcher"));
    const refusal = (input: Record<string, unknown>) =>
      caller.domains.register(input as never).then(
        () => null,
        (e: unknown) => e as { code: string; message: string },
      );

    const down = await refusal({ ...registration(), url: `http://127.0.0.1:${await closedPort()}` });
    expect(down?.code).toBe("BAD_REQUEST");
    expect(down?.message).toMatch(/^remote domain "tickets" at http:\/\/127\.0\.0\.1:\d+ failed its check: /);

    const invalid = await refusal({ ...registration(), url: "ftp://x", concurrency: 0 });
    expect(invalid?.code).toBe("BAD_REQUEST");
    expect(invalid?.message).toMatch(/^invalid remote domain: url: .*; concurrency: /);
    expect(invalid?.message).not.toMatch(/^\[|"code"/);

    expect((await refusal({ ...registration(), name: "shop" }))?.message).toMatch(/is a built-in domain/);
    expect((await refusal([] as never))?.code).toBe("BAD_REQUEST");
    expect(await t.db.remoteDomain.count()).toBe(0);
    expect(await caller.domains.remote()).toEqual([]);
  });

  it("removes a registration unless a queued or running run uses it, and names what it cannot find", async () => {
    const caller = createCaller(signedIn(t.db, "researcher"));
    await caller.domains.register(registration());
    const run = await t.db.run.create({
      data: {
        name: "on tickets",
        method: "real",
        domain: "tickets",
        algorithm: "grpo",
        config: {},
        status: "running",
      },
    });
    await expect(caller.domains.remove({ name: "tickets" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(
        /in use by 1 queued or running run\(s\) \(on tickets\): cancel them first/,
      ),
    });
    // Its run is a real domain's (real figures), and after the removal it names a domain no list has.
    expect((await caller.runs.get({ id: run.id })).domainKind).toBe("remote");
    await t.db.run.update({ where: { id: run.id }, data: { status: "succeeded" } });
    expect(await caller.domains.remove({ name: "tickets" })).toEqual({ removed: "tickets" });
    expect((await caller.runs.get({ id: run.id })).domainKind).toBeNull();
    expect(await caller.domains.remote()).toEqual([]);
    expect((await caller.domains.list()).map((d) => d.kind)).not.toContain("remote");
    await expect(caller.domains.remove({ name: "tickets" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: 'no remote domain is named "tickets"',
    });
    await expect(caller.domains.check({ name: "tickets" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("lets viewers and annotators read the registrations but not register, check or remove one", async () => {
    await createCaller(signedIn(t.db, "admin")).domains.register(registration());
    for (const role of ["viewer", "annotator"] as const) {
      const caller = createCaller(signedIn(t.db, role));
      expect((await caller.domains.remote()).map((d) => d.name)).toEqual(["tickets"]);
      for (const attempt of [
        caller.domains.register({ ...registration(), name: "other" }),
        caller.domains.check({ name: "tickets" }),
        caller.domains.remove({ name: "tickets" }),
      ])
        await expect(attempt).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    expect((await t.db.remoteDomain.findMany()).map((d) => d.name)).toEqual(["tickets"]);
  });
});
