/**
 * What AgentGym's published clients (WebshopEnvClient, AlfWorldEnvClient) send and read, against the environment
 * server on 127.0.0.1 over real HTTP: empty actions, rewards as floats, ALFWorld's /detail, and a step after the
 * end. Their clients assert HTTP 200 on every call and then read named keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerTestDb, startTestEnvServer } from "../../../tests/helpers/envServerFixture";
import { call } from "../../../tests/helpers/envServerWire";
import type { TestDb } from "../../../tests/helpers/testDb";
import type { EnvServer } from "./server";

let t: TestDb;
let server: EnvServer;
const WEBSHOP = "/agentgym/webshop";
const ALFWORLD = "/agentgym/alfworld";
const post = (route: string, body?: unknown) => call(server.url, "POST", route, body);
const get = (route: string) => call(server.url, "GET", route);

beforeAll(async () => {
  t = await createServerTestDb();
  server = await startTestEnvServer(t);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

async function alfworldEnv(game: number) {
  const id = (await post(`${ALFWORLD}/create`)).json.id as number;
  const reset = await post(`${ALFWORLD}/reset`, { id, game, world_type: "Text" });
  return { id, reset: reset.json };
}

describe("an empty or non-string action on AgentGym's routes", () => {
  it("is an invalid action: 200, the state unchanged, reward 0.0, the step counted", async () => {
    const envIdx = (await post(`${WEBSHOP}/create`)).json as number;
    await post(`${WEBSHOP}/reset`, { env_idx: envIdx, session_id: 2 });
    const page = (await get(`${WEBSHOP}/observation?env_idx=${envIdx}`)).json;
    for (const action of ["", "  ", 3]) {
      const step = await post(`${WEBSHOP}/step`, { env_idx: envIdx, action });
      expect(step.status).toBe(200);
      expect(step.json).toEqual({ state: page, reward: 0, done: false, info: null });
      expect(step.text).toContain('"reward":0.0');
    }
    const { id, reset } = await alfworldEnv(1);
    for (const body of [{ id, action: "" }, { id }, { id, action: null }]) {
      const step = await post(`${ALFWORLD}/step`, body);
      expect(step.status).toBe(200);
      expect(step.json).toMatchObject({ observation: reset.observation, reward: 0, done: false });
    }
    expect((await get(`${ALFWORLD}/detail?id=${id}`)).json.step_count).toBe(3);
  });
});

describe("rewards on AgentGym's routes", () => {
  it("are JSON floats (0.0), as AgentGym's pydantic models send them", async () => {
    const envIdx = (await post(`${WEBSHOP}/create`)).json as number;
    await post(`${WEBSHOP}/reset`, { env_idx: envIdx, session_id: 1 });
    const shop = await post(`${WEBSHOP}/step`, { env_idx: envIdx, action: "search[shoes]" });
    expect(shop.text).toMatch(/"reward":0\.0[,}]/);
    const { id, reset } = await alfworldEnv(0);
    const house = await post(`${ALFWORLD}/step`, { id, action: reset.available_actions[0] });
    expect(house.text).toMatch(/"reward":0\.0[,}]/);
    expect((await get(`${ALFWORLD}/detail?id=${id}`)).text).toMatch(/"reward":0\.0[,}]/);
  });
});

describe("ALFWorld's /detail", () => {
  it("has AgentGym's fields (world_type, game, observation, available_actions, done, reward, deleted), DreamGym's beside them", async () => {
    const id = (await post(`${ALFWORLD}/create`)).json.id as number;
    expect((await get(`${ALFWORLD}/detail?id=${id}`)).json).toEqual({
      done: false,
      reward: 0,
      deleted: false,
    });
    const reset = (await post(`${ALFWORLD}/reset`, { id, game: 2, world_type: "Text" })).json;
    const detail = (await get(`${ALFWORLD}/detail?id=${id}`)).json;
    expect(detail).toMatchObject({
      world_type: "Text",
      game: 2,
      observation: reset.observation,
      available_actions: reset.available_actions,
      done: false,
      reward: 0,
      deleted: false,
    });
    expect(detail).toMatchObject({ step_count: 0, task_id: "household:train:2", domain: "household" });
    const step = (await post(`${ALFWORLD}/step`, { id, action: reset.available_actions[0] })).json;
    const after = (await get(`${ALFWORLD}/detail?id=${id}`)).json;
    expect(after).toMatchObject({
      observation: step.observation,
      available_actions: step.available_actions,
      done: step.done,
      reward: step.reward,
      step_count: 1,
    });
  });
});

describe("a step after the episode ended on AgentGym's routes", () => {
  it("answers 200 with AgentGym's {error} (ALFWorld's wrapper's words), WebShop's four fields beside it", async () => {
    const { id, reset } = await alfworldEnv(3);
    let done = false;
    for (let i = 0; i < 60 && !done; i++)
      done = (await post(`${ALFWORLD}/step`, { id, action: reset.available_actions.at(-1) })).json.done;
    expect(done).toBe(true);
    const after = await post(`${ALFWORLD}/step`, { id, action: "look" });
    expect(after.status).toBe(200);
    expect(after.json).toEqual({ error: `The task with environment ${id} has finished.` });

    const envIdx = (await post(`${WEBSHOP}/create`)).json as number;
    await post(`${WEBSHOP}/reset`, { env_idx: envIdx, session_id: 0 });
    let shopDone = false;
    for (let i = 0; i < 20 && !shopDone; i++)
      shopDone = (await post(`${WEBSHOP}/step`, { env_idx: envIdx, action: "click[nothing]" })).json.done;
    expect(shopDone).toBe(true);
    const shopAfter = await post(`${WEBSHOP}/step`, { env_idx: envIdx, action: "click[nothing]" });
    expect(shopAfter.status).toBe(200);
    expect(shopAfter.json).toMatchObject({
      reward: 0,
      done: true,
      info: null,
      error: expect.stringMatching(/has finished/),
    });
    expect(shopAfter.text).toContain('"reward":0.0');
  });
});
