/**
 * HTTP episodes on a small server (4 slots, 3 per client) on 127.0.0.1: OpenEnv's HTTP clients step and read
 * /state without an episode id, HTTP has a close, idle HTTP episodes give way when the server is full, and no
 * client can take every slot. Callers are told apart by their bearer tokens (people's sessions here).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServerTestDb } from "../../../tests/helpers/envServerFixture";
import { call, WsSession } from "../../../tests/helpers/envServerWire";
import type { TestDb } from "../../../tests/helpers/testDb";
import { type EnvServer, startEnvServer } from "./server";

let t: TestDb;
let server: EnvServer;
const sockets: WsSession[] = [];

/** A caller with a bearer token of its own (a signed-in researcher's session, as far as the server knows). */
const as = (name: string) => {
  const headers = { authorization: `Bearer ${name}-session-token` };
  return {
    post: (route: string, body?: unknown) => call(server.url, "POST", route, body, headers),
    get: (route: string) => call(server.url, "GET", route, undefined, headers),
    ws: async (route = "/ws") => {
      const ws = await WsSession.open(server.url, route, headers);
      sockets.push(ws);
      return ws;
    },
  };
};

beforeAll(async () => {
  t = await createServerTestDb();
  server = await startEnvServer(t.db, {
    port: 0,
    maxSessions: 4,
    idleMs: 120_000,
    figuresMs: 20,
    indexEveryMs: 0,
    session: async (authorization) =>
      authorization.endsWith("-session-token") ? { role: "researcher", allowed: true } : null,
  });
}, 120_000);

afterEach(() => {
  for (const ws of sockets.splice(0)) ws.close();
  for (const session of server.service.sessions.all()) server.service.close(session);
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe("HTTP /step and /state without an episode id", () => {
  it("play the caller's most recent HTTP episode (by bearer token, else by address)", async () => {
    const alice = as("alice");
    const bob = as("bob");
    const a1 = (await alice.post("/shop/real/reset", { seed: 1 })).json.metadata.episode_id;
    const b1 = (await bob.post("/household/real/reset", { seed: 1 })).json.metadata.episode_id;
    const step = await alice.post("/step", { action: { action: "search[red shoes]" } });
    expect(step.status).toBe(200);
    expect(step.json.metadata.episode_id).toBe(a1);
    expect((await bob.get("/state")).json).toMatchObject({ episode_id: b1, step_count: 0 });
    expect((await alice.get("/state")).json).toMatchObject({ episode_id: a1, step_count: 1 });
    const a2 = (await alice.post("/shop/real/reset", { seed: 2 })).json.metadata.episode_id;
    expect((await alice.post("/step", { action: "search[lamp]" })).json.metadata.episode_id).toBe(a2);
    // null, as a client that has not kept the id sends it, is no id either.
    const nullId = await alice.post("/step", { episode_id: null, action: "search[desk]" });
    expect(nullId.json.observation.step).toBe(2);
    // A caller that started nothing: no episode to step, and the blank state of an environment not reset.
    const stranger = await call(server.url, "POST", "/step", { action: "look" });
    expect(stranger.status).toBe(409);
    expect(stranger.json.data.code).toBe("NOT_RESET");
    expect((await call(server.url, "GET", "/state")).json).toMatchObject({ episode_id: null, step_count: 0 });
  });
});

describe("POST /close", () => {
  it("ends an HTTP episode: its slot is freed and it is recorded as abandoned with its steps", async () => {
    const carol = as("carol");
    const reset = (await carol.post("/shop/real/reset", { seed: 3 })).json;
    await carol.post("/step", { action: "search[socks]" });
    const open = server.service.sessions.size;
    const closed = await carol.post("/close", {});
    expect(closed.json).toEqual({ episode_id: reset.metadata.episode_id, status: "abandoned", closed: true });
    expect(server.service.sessions.size).toBe(open - 1);
    const late = await carol.post("/step", { episode_id: reset.metadata.episode_id, action: "look" });
    expect(late.json.data.code).toBe("UNKNOWN_EPISODE");
    const byId = (await carol.post("/shop/real/reset", { seed: 4 })).json.metadata.episode_id;
    expect((await carol.post("/close", { episode_id: byId })).json.status).toBe("abandoned");
    await server.service.settle();
    const stored = await t.db.trajectory.findUniqueOrThrow({
      where: { id: reset.metadata.trajectory_id },
      include: { steps: true },
    });
    expect(stored).toMatchObject({ status: "abandoned", length: 1 });
    expect(stored.steps).toHaveLength(1);
  });
});

describe("a full server", () => {
  it("frees its least recently used idle HTTP episode, recorded as abandoned, so a WebSocket client still gets in", async () => {
    const dave = as("dave");
    const ids: string[] = [];
    const trajectories: string[] = [];
    for (const seed of [1, 2, 3]) {
      const reply = (await dave.post("/shop/real/reset", { seed })).json;
      ids.push(reply.metadata.episode_id);
      trajectories.push(reply.metadata.trajectory_id);
    }
    await as("erin").post("/shop/real/reset", { seed: 5 });
    // The first episode is used again: the second is now the least recently used.
    await dave.post("/step", { episode_id: ids[0], action: "search[hat]" });
    expect(server.service.sessions.size).toBe(4);

    const ws = await as("frank").ws("/household/real/ws");
    const reset = await ws.ask({ type: "reset", data: { seed: 0 } });
    expect(reset.json.type).toBe("observation");
    const evicted = await dave.post("/step", { episode_id: ids[1], action: "look" });
    expect(evicted.status).toBe(404);
    expect(evicted.json.data.message).toMatch(/least recently used idle HTTP episode/);
    expect((await dave.post("/step", { episode_id: ids[0], action: "look" })).status).toBe(200);
    await server.service.settle();
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id: trajectories[1] } })).status).toBe(
      "abandoned",
    );
  });
});

describe("one client", () => {
  it("cannot take every slot: past its share one more session of it is refused, while another client gets in", async () => {
    const gina = as("gina");
    for (let i = 0; i < 3; i++) {
      const ws = await gina.ws();
      expect(
        (await ws.ask({ type: "reset", data: { domain: "shop", mode: "real", seed: i } })).json.type,
      ).toBe("observation");
    }
    const fourth = await gina.ws();
    const refused = await fourth.next();
    expect(refused.json.data).toMatchObject({
      code: "CAPACITY_REACHED",
      message: expect.stringMatching(/a client's share/),
    });
    const http = await gina.post("/shop/real/reset", { seed: 9 });
    expect(http.status).toBe(503);
    const other = await as("hal").post("/shop/real/reset", { seed: 9 });
    expect(other.status).toBe(200);
  });
});
