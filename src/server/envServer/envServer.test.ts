/**
 * The environment server against its standard-library Python client (adapters/python/selftest.py), on 127.0.0.1
 * with a real SQLite database and offline data: OpenEnv over WebSocket and HTTP in both modes and domains,
 * AgentGym's WebShop and ALFWorld shapes, the error codes, the capacity and the idle timeout. Then every episode is
 * looked up in the database under its external run.
 */

import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdapterScript } from "../../../tests/helpers/pythonAdapter";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { sessionHeaders } from "../auth/testing";
import { authorize } from "./http";
import { type EnvServer, startEnvServer } from "./server";

const IDLE_SECONDS = 2;
const MAX_SESSIONS = 4;

let t: TestDb;
let server: EnvServer;

describeEachDatabase("environment server", (dialect) => {
  beforeAll(async () => {
    t = await createTestDb(dialect);
    process.env.DREAMGYM_DATA_DIR = t.dir;
    process.env.LANCEDB_DIR = path.join(t.dir, "lancedb");
    const { collectOffline } = await import("@/server/collect/collectOffline");
    for (const domain of ["shop", "household"] as const)
      await collectOffline(t.db, {
        domain,
        policy: "noisy",
        episodes: 40,
        split: "train",
        epsilon: 0.3,
        seed: 1,
        offset: 0,
      });
    server = await startEnvServer(t.db, {
      port: 0,
      maxSessions: MAX_SESSIONS,
      idleMs: IDLE_SECONDS * 1000,
      threads: 0,
      figuresMs: 20,
      indexEveryMs: 0,
      databaseUrl: t.url,
    });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  interface SelfTest {
    runs: Record<"shop" | "household", string>;
    episodes: Array<{
      transport: string;
      domain: string;
      mode: string;
      episode_id: string;
      steps?: number;
      synthetic_steps?: number;
      task_id?: string;
      first_task?: string;
    }>;
    errors: Record<string, unknown>;
    agentgym: Record<string, { steps: number; step_after_done?: string; state_keys?: string[] }>;
    vanished: string;
    idle: string[];
  }

  /** Runs the client in its own process. */
  function runSelfTest(): Promise<SelfTest> {
    return runAdapterScript<SelfTest>("selftest.py", [
      server.url,
      "--idle-seconds",
      String(IDLE_SECONDS),
      "--max-sessions",
      String(MAX_SESSIONS),
    ]);
  }

  describe("the environment server with the Python client", () => {
    let out: SelfTest;
    beforeAll(async () => {
      out = await runSelfTest();
      await server.service.settle();
    }, 300_000);

    it("plays an episode over WebSocket and over HTTP in each mode and domain", () => {
      for (const domain of ["shop", "household"])
        for (const mode of ["real", "synthetic"])
          for (const transport of ["ws", "http"]) {
            const e = out.episodes.find(
              (x) => x.domain === domain && x.mode === mode && x.transport === transport,
            );
            expect(e, `${transport} ${domain} ${mode}`).toBeDefined();
            expect(e!.steps).toBeGreaterThan(0);
            if (mode === "synthetic") expect(e!.synthetic_steps).toBe(e!.steps);
            else expect(e!.synthetic_steps).toBe(0);
          }
    });

    it("gives every reset of a group the same task", async () => {
      for (const g of out.episodes.filter((e) => e.transport === "ws-group")) {
        const first = await t.db.trajectory.findUniqueOrThrow({ where: { episodeId: g.first_task! } });
        expect(g.task_id).toBe(first.taskId);
        const second = await t.db.trajectory.findUniqueOrThrow({ where: { episodeId: g.episode_id } });
        expect([first.group, second.group]).toEqual([0, 1]);
      }
    });

    it("answers AgentGym's WebShop and ALFWorld clients in their own shapes", () => {
      expect(out.agentgym.webshop!.steps).toBeGreaterThan(0);
      expect(out.agentgym.webshop_synthetic!.steps).toBeGreaterThan(0);
      expect(out.agentgym.webshop!.state_keys).toEqual(["html", "instruction_text", "url"]);
      expect(out.agentgym.alfworld!.steps).toBeGreaterThan(0);
      expect(out.agentgym.alfworld!.step_after_done).toMatch(/has finished/);
    });

    it("answers mistakes with OpenEnv's error codes", () => {
      expect(out.errors).toMatchObject({
        step_before_reset: "NOT_RESET",
        empty_action: { valid: false, reward: 0, step: 1 },
        unknown_task: "UNKNOWN_TASK",
        unknown_run: "UNKNOWN_RUN",
        unknown_type: "UNKNOWN_TYPE",
        invalid_json: "INVALID_JSON",
        state_after_errors: 1,
        unknown_episode: "UNKNOWN_EPISODE",
        step_after_done: "EPISODE_DONE",
        capacity: "CAPACITY_REACHED",
        capacity_http: "CAPACITY_REACHED",
        idle_ws: "SESSION_ERROR",
        idle_http: "UNKNOWN_EPISODE",
      });
    });

    it("stores every episode under its external run, synthetic steps beside the real answer", async () => {
      const ids = out.episodes.filter((e) => e.transport !== "ws-group").map((e) => e.episode_id);
      for (const e of out.episodes.filter((x) => x.steps !== undefined)) {
        const row = await t.db.trajectory.findUniqueOrThrow({
          where: { episodeId: e.episode_id },
          include: { steps: { orderBy: { index: "asc" } }, run: true },
        });
        expect(row.run?.kind).toBe("external");
        expect(row.runId).toBe(out.runs[e.domain as "shop" | "household"]);
        expect(row.status).toBe("done");
        expect(row.steps).toHaveLength(e.steps!);
        expect(row.length).toBe(e.steps);
        expect(row.source).toBe(e.mode);
        expect(row.steps[0]!.logprob).toBeCloseTo(-0.5);
        expect(row.agentTokens).toBe(7 * e.steps!);
        if (e.mode === "synthetic") {
          expect(row.steps[0]!.reasoning).toBeTruthy();
          expect(row.steps[0]!.model).toBe("retrieval-exp-v1");
          expect(row.steps[0]!.neighbourIds).not.toBeNull();
          expect(row.steps[0]!.confidence).not.toBeNull();
          expect(row.steps[0]!.realNextState).not.toBeNull();
        }
      }
      expect(ids.length).toBeGreaterThanOrEqual(9);
      // AgentGym episodes are recorded too: 3 of them, beside the OpenEnv ones.
      const agentgym = await t.db.trajectory.count({
        where: {
          runId: { in: Object.values(out.runs) },
          episodeId: { not: null },
          policy: { startsWith: "trainer@" },
        },
      });
      expect(agentgym).toBeGreaterThanOrEqual(ids.length + 3);
    });

    it("records episodes given up by their client as abandoned, with their steps", async () => {
      const vanished = await t.db.trajectory.findUniqueOrThrow({
        where: { episodeId: out.vanished },
        include: { steps: true },
      });
      expect(vanished.status).toBe("abandoned");
      expect(vanished.steps).toHaveLength(1);
      const [idleWs, idleHttp] = await Promise.all(
        out.idle.map((id) =>
          t.db.trajectory.findUniqueOrThrow({ where: { episodeId: id }, include: { steps: true } }),
        ),
      );
      expect(idleWs!.status).toBe("abandoned");
      expect(idleWs!.steps).toHaveLength(1);
      expect(idleHttp!.status).toBe("abandoned");
    });

    it("draws the run's curves and heatmap from its episodes, with the trainer's metrics", async () => {
      const metrics = await t.db.runMetric.findMany({
        where: { runId: out.runs.shop },
        orderBy: { iteration: "asc" },
      });
      const v1 = metrics.find((m) => m.iteration === 1)!;
      expect(v1.syntheticSuccess).not.toBeNull();
      expect(v1.realSuccess).not.toBeNull();
      expect((v1.extra as { trainer: Record<string, number> }).trainer).toEqual({ loss: 0.42, kl: 0.013 });
      expect(await t.db.taskStat.count({ where: { runId: out.runs.shop } })).toBeGreaterThan(0);
      const run = await t.db.run.findUniqueOrThrow({ where: { id: out.runs.shop } });
      expect(run.iteration).toBe(2);
      expect(run.syntheticTransitions).toBeGreaterThan(0);
      // The counts are cumulative: a version the trainer only posted figures for keeps what was used before it.
      for (let i = 1; i < metrics.length; i++) {
        expect(metrics[i]!.syntheticTransitions).toBeGreaterThanOrEqual(metrics[i - 1]!.syntheticTransitions);
        expect(metrics[i]!.realTransitions).toBeGreaterThanOrEqual(metrics[i - 1]!.realTransitions);
      }
      expect(metrics.at(-1)!.syntheticTransitions).toBe(run.syntheticTransitions);
    });
  });

  describe("OpenEnv's discovery routes", () => {
    it("answer with exactly the fields OpenEnv's clients accept, and document every field", async () => {
      const get = async (route: string) =>
        (await (await fetch(`${server.url}${route}`)).json()) as Record<string, unknown>;
      expect(await get("/health")).toEqual({ status: "healthy" });
      const schema = await get("/schema");
      expect(Object.keys(schema).sort()).toEqual(["action", "observation", "state"]);
      const action = schema.action as { properties: Record<string, { description?: string }> };
      expect(Object.keys(action.properties)).toEqual(["action", "logprob", "tokens", "metadata"]);
      for (const field of Object.values(action.properties)) expect(field.description).toBeTruthy();
      expect(Object.keys(await get("/schemas"))).toContain("reset");
      const metadata = await get("/metadata");
      for (const key of Object.keys(metadata))
        expect(["name", "description", "readme_content", "version", "author", "documentation_url"]).toContain(
          key,
        );
      expect(Object.keys(await get("/shop/synthetic/schema"))).toHaveLength(3);
    });
  });

  describe("the replay buffer", () => {
    it("takes the external runs' steps into LanceDB", async () => {
      const runIds = (await t.db.run.findMany({ where: { kind: "external" }, select: { id: true } })).map(
        (r) => r.id,
      );
      const where = { trajectory: { runId: { in: runIds } } };
      expect(await t.db.step.count({ where })).toBeGreaterThan(0);
      await server.service.index();
      expect(await t.db.step.count({ where: { ...where, indexedAt: null } })).toBe(0);
    });
  });

  /** This machine's address as other machines see it, if it has one. */
  function outsideAddress(): string | undefined {
    return Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i?.family === "IPv4" && !i.internal)?.address;
  }

  describe("who may use the server", () => {
    const address = outsideAddress();
    // Only a machine with an address besides loopback can call itself as another machine would.
    if (address)
      it("asks a client from another address for the bearer token", async () => {
        const token = "a-very-long-secret-token";
        const open = await startEnvServer(t.db, { host: "0.0.0.0", port: 0, token, indexEveryMs: 0 });
        try {
          const outside = `http://${address}:${open.port}`;
          const refused = await fetch(`${outside}/health`);
          expect(refused.status).toBe(401);
          expect(((await refused.json()) as { data: { code: string } }).data.code).toBe("UNAUTHORIZED");
          expect(
            (await fetch(`${outside}/health`, { headers: { authorization: `Bearer ${token}` } })).status,
          ).toBe(200);
          expect((await fetch(`http://127.0.0.1:${open.port}/health`)).status).toBe(200);
        } finally {
          await open.close();
        }
      });

    it("serves this machine without a token, others with the server's token or a session whose role may train", async () => {
      await expect(authorize("127.0.0.1", undefined)).resolves.toBeUndefined();
      await expect(authorize("::1", undefined)).resolves.toBeUndefined();
      await expect(authorize("10.0.0.2", undefined)).rejects.toThrow(/DREAMGYM_ENV_TOKEN/);
      const token = "a-very-long-secret-token";
      await expect(authorize("10.0.0.2", "Bearer nope", token)).rejects.toThrow(/wrong bearer token/);
      await expect(authorize("10.0.0.2", `Bearer ${token}`, token)).resolves.toBeUndefined();
      // A token that is given must be right, from this machine too.
      await expect(authorize("127.0.0.1", "Bearer nope", token)).rejects.toThrow(/wrong bearer token/);
    });

    it("checks a person's session token and role: researchers train, viewers are refused with 403", async () => {
      const server = await startEnvServer(t.db, { port: 0, indexEveryMs: 0 });
      try {
        const health = async (headers: Headers) => {
          const response = await fetch(`${server.url}/health`, { headers });
          return {
            status: response.status,
            body: (await response.json()) as { data?: { code: string; message: string } },
          };
        };
        expect((await health(await sessionHeaders(t.db, "researcher"))).status).toBe(200);
        const viewer = await health(await sessionHeaders(t.db, "viewer"));
        expect(viewer.status).toBe(403);
        expect(viewer.body.data).toMatchObject({
          code: "FORBIDDEN",
          message: expect.stringContaining("(viewer)"),
        });
        const stale = await health(new Headers({ authorization: "Bearer not-a-session" }));
        expect(stale.status).toBe(401);
      } finally {
        await server.close();
      }
    });
  });
});
