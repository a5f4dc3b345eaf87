/**
 * What OpenEnv's published clients send, against the environment server on 127.0.0.1 (real HTTP and WebSocket):
 * unknown fields, empty actions from LLM replies, rewards read by Python, `openenv validate --url`'s checks, test
 * tasks, and a server started on an empty data folder (which seeds it, so synthetic resets work).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoIfEmpty } from "@/server/demo/seedDemo";
import { createServerTestDb, startTestEnvServer } from "../../../tests/helpers/envServerFixture";
import { call, WsSession } from "../../../tests/helpers/envServerWire";
import type { TestDb } from "../../../tests/helpers/testDb";
import type { EnvServer } from "./server";

let t: TestDb;
let server: EnvServer;
let trajectoriesBeforeStart = -1;
const post = (route: string, body?: unknown) => call(server.url, "POST", route, body);
const get = (route: string) => call(server.url, "GET", route);

beforeAll(async () => {
  t = await createServerTestDb();
  trajectoriesBeforeStart = await t.db.trajectory.count();
  server = await startTestEnvServer(t, { databaseUrl: t.url, seedIfEmpty: true });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe("a server started on an empty data folder", () => {
  it("seeds it before serving, so synthetic resets work and a later `cli seed` finds it seeded", async () => {
    expect(trajectoriesBeforeStart).toBe(0);
    expect(await t.db.trajectory.count({ where: { source: "offline", domain: "shop" } })).toBeGreaterThan(0);
    const reset = await post("/shop/synthetic/reset", { seed: 2 });
    expect(reset.status).toBe(200);
    const step = await post("/step", {
      episode_id: reset.json.metadata.episode_id,
      action: reset.json.observation.available_actions[0],
    });
    expect(step.status).toBe(200);
    expect(step.json.observation.synthetic.reasoning.length).toBeGreaterThan(0);
    // `npm run cli -- seed` runs this: the demo data is there, nothing is missing and nothing is seeded twice.
    const offline = await t.db.trajectory.count({ where: { source: "offline" } });
    expect(await seedDemoIfEmpty(t.db)).toBe(false);
    expect(await t.db.trajectory.count({ where: { source: "offline" } })).toBe(offline);
  });
});

describe("fields the server does not know", () => {
  it("are ignored in reset data, step bodies and WebSocket messages' data; known fields are still checked", async () => {
    const reset = await post("/reset", {
      domain: "shop",
      mode: "real",
      seed: 1,
      env: "webshop",
      extra: { a: 1 },
    });
    expect(reset.status).toBe(200);
    const episode_id = reset.json.metadata.episode_id;
    const step = await post("/step", {
      episode_id,
      action: { action: "search[red shoes]", thought: "…", metadata: {} },
      render: true,
    });
    expect(step.status).toBe(200);
    expect(step.json.observation.step).toBe(1);

    const ws = await WsSession.open(server.url);
    const wsReset = await ws.ask({
      type: "reset",
      data: { domain: "household", mode: "real", seed: 0, env: "x" },
    });
    expect(wsReset.json.type).toBe("observation");
    const wsStep = await ws.ask({ type: "step", data: { action: "look", tool_call_id: "c1" } });
    expect(wsStep.json.type).toBe("observation");

    const badSeed = await post("/reset", { domain: "shop", mode: "real", seed: "one", env: "x" });
    expect(badSeed.status).toBe(422);
    expect(badSeed.json.data).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("seed"),
    });
    const badLogprob = await ws.ask({ type: "step", data: { action: "look", logprob: "high" } });
    expect(badLogprob.json.data).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("logprob"),
    });
    const badWsReset = await ws.ask({ type: "reset", data: { seed: -1, unknown: true } });
    expect(badWsReset.json.data.message).toContain("seed");
    ws.close();
  });
});

describe("an empty or unparseable action", () => {
  it("is an invalid action (state unchanged, reward 0.0, valid false, the step counted and recorded) over WebSocket and HTTP, real and synthetic", async () => {
    const ids: string[] = [];
    for (const mode of ["real", "synthetic"] as const) {
      const ws = await WsSession.open(server.url, `/shop/${mode}/ws`);
      const reset = await ws.ask({ type: "reset", data: { seed: 4 } });
      ids.push(reset.json.data.metadata.trajectory_id);
      const before = reset.json.data.observation.text;
      const empties: unknown[] = [
        { action: "" },
        { action: "   \n" },
        {},
        { action: 7 },
        { action: null },
        "",
        null,
      ];
      for (const [i, data] of empties.entries()) {
        const reply = await ws.ask({ type: "step", data });
        expect(reply.json.type, `${mode} ${JSON.stringify(data)}`).toBe("observation");
        expect(reply.json.data).toMatchObject({ reward: 0, done: false });
        expect(reply.json.data.observation).toMatchObject({ valid: false, text: before, step: i + 1 });
        expect(reply.text).toContain('"reward":0.0');
      }
      ws.close();
    }
    const http = await post("/shop/real/reset", { seed: 4 });
    ids.push(http.json.metadata.trajectory_id);
    const noAction = await post("/step", { episode_id: http.json.metadata.episode_id });
    expect(noAction.status).toBe(200);
    expect(noAction.json.observation).toMatchObject({ valid: false, step: 1 });
    const emptyString = await post("/step", { episode_id: http.json.metadata.episode_id, action: "" });
    expect(emptyString.json.observation).toMatchObject({ valid: false, step: 2 });

    await server.service.settle();
    for (const id of ids) {
      const stored = await t.db.trajectory.findUniqueOrThrow({ where: { id }, include: { steps: true } });
      expect(stored.steps.length).toBeGreaterThanOrEqual(2);
      expect(stored.steps.every((s) => !s.valid && s.reward === 0 && s.nextState === s.state)).toBe(true);
    }
  });
});

describe("rewards", () => {
  it("are JSON floats on every OpenEnv route: 0.0, never 0", async () => {
    const reset = await post("/household/real/reset", { seed: 3 });
    const episode_id = reset.json.metadata.episode_id;
    const step = await post("/step", { episode_id, action: "look" });
    expect(step.json.reward).toBe(0);
    expect(step.text).toMatch(/"reward":0\.0[,}]/);
    const state = await get(`/state?episode_id=${episode_id}`);
    expect(state.text).toMatch(/"total_reward":0\.0[,}]/);
    const ws = await WsSession.open(server.url, "/household/real/ws");
    await ws.ask({ type: "reset", data: { seed: 3 } });
    expect((await ws.ask({ type: "step", data: { action: "look" } })).text).toMatch(/"reward":0\.0[,}]/);
    expect((await ws.ask({ type: "state" })).text).toMatch(/"total_reward":0\.0[,}]/);
    ws.close();
  });
});

describe("a step after the episode ended on the OpenEnv routes", () => {
  it("keeps OpenEnv's own answer: an error with code EPISODE_DONE (409 over HTTP)", async () => {
    const reset = await post("/shop/real/reset", { seed: 0 });
    let reply = reset.json;
    for (let i = 0; i < 20 && !reply.done; i++)
      reply = (await post("/step", { episode_id: reset.json.metadata.episode_id, action: "click[nothing]" }))
        .json;
    expect(reply.done).toBe(true);
    const after = await post("/step", { episode_id: reset.json.metadata.episode_id, action: "look" });
    expect(after.status).toBe(409);
    expect(after.json.data.code).toBe("EPISODE_DONE");
  });
});

/** The checks of OpenEnv's `openenv validate --url` (validate_running_environment), request for request. */
async function validateRunningEnvironment(base: string) {
  const openapi = await call(base, "GET", "/openapi.json");
  const health = await call(base, "GET", "/health");
  const metadata = await call(base, "GET", "/metadata");
  const schema = await call(base, "GET", "/schema");
  const mcp = await call(base, "POST", "/mcp", {});
  const isDict = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  const paths = openapi.json?.paths ?? {};
  const criteria = {
    openapi_version_available:
      openapi.status === 200 && isDict(openapi.json?.info) && typeof openapi.json.info.version === "string",
    health_endpoint: health.status === 200 && health.json?.status === "healthy",
    metadata_endpoint:
      metadata.status === 200 &&
      typeof metadata.json?.name === "string" &&
      typeof metadata.json?.description === "string",
    schema_endpoint:
      schema.status === 200 &&
      isDict(schema.json?.action) &&
      isDict(schema.json?.observation) &&
      isDict(schema.json?.state),
    mcp_endpoint: mcp.status === 200 && mcp.json?.jsonrpc === "2.0",
    // "/reset" present: simulation mode, which needs /step and /state too.
    mode_endpoint_consistency: "/reset" in paths && "/step" in paths && "/state" in paths,
  };
  const profile = String(openapi.json?.info?.version).startsWith("1.") ? "openenv-http/1.x" : "unknown";
  return { criteria, profile };
}

describe("openenv validate --url", () => {
  it("passes every check of the validator, at the root and under a prefix", async () => {
    for (const base of [server.url, `${server.url}/shop/synthetic`]) {
      const report = await validateRunningEnvironment(base);
      expect(report.criteria, base).toEqual({
        openapi_version_available: true,
        health_endpoint: true,
        metadata_endpoint: true,
        schema_endpoint: true,
        mcp_endpoint: true,
        mode_endpoint_consistency: true,
      });
      expect(report.profile).toBe("openenv-http/1.x");
    }
    // MCP as OpenEnv's servers answer it: JSON-RPC errors with HTTP 200.
    const list = await post("/mcp", { jsonrpc: "2.0", method: "tools/list", id: 1 });
    expect(list.json).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32603 } });
    const garbled = await post("/mcp", "{not json");
    expect(garbled).toMatchObject({ status: 200, json: { jsonrpc: "2.0", error: { code: -32700 } } });
  });
});

describe("test-split tasks", () => {
  it("are refused unless the reset says it is an evaluation; split and index address a task before seed", async () => {
    for (const body of [{ task_id: "shop:test:5" }, { split: "test", index: 5 }]) {
      const refused = await post("/shop/real/reset", body);
      expect(refused.status).toBe(422);
      expect(refused.json.data.message).toMatch(/held out for evaluation: send evaluation: true/);
    }
    const ws = await WsSession.open(server.url, "/shop/real/ws");
    const wsRefused = await ws.ask({ type: "reset", data: { split: "test", index: 5 } });
    expect(wsRefused.json.data.code).toBe("VALIDATION_ERROR");
    ws.close();

    const evaluation = await post("/shop/real/reset", { split: "test", index: 5, evaluation: true });
    expect(evaluation.status).toBe(200);
    expect(evaluation.json.metadata.task_id).toBe("shop:test:5");
    const byAddress = await post("/shop/real/reset", { split: "train", index: 7, seed: 3 });
    expect(byAddress.json.metadata.task_id).toBe("shop:train:7");
    const half = await post("/shop/real/reset", { split: "train" });
    expect(half.status).toBe(422);
    expect(half.json.data.message).toContain("index");

    await server.service.settle();
    const stored = await t.db.trajectory.findUniqueOrThrow({
      where: { id: evaluation.json.metadata.trajectory_id },
    });
    expect(stored.purpose).toBe("eval");
  });
});
