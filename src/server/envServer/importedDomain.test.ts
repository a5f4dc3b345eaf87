/**
 * The environment server on a domain that exists only as imported logs (the sample web-admin domain), over
 * OpenEnv's HTTP routes on 127.0.0.1 with a real SQLite database: a trainer plays synthetic episodes that start
 * where the logs start, offered the logged actions, and they are recorded under an external run of that domain;
 * real episodes, unknown domains and real-environment methods are refused before anything is written.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerTestDb, startTestEnvServer } from "../../../tests/helpers/envServerFixture";
import type { TestDb } from "../../../tests/helpers/testDb";
import { importTrajectoriesFile } from "../trajectories/importTrajectories";
import type { EnvServer } from "./server";

let t: TestDb;
let server: EnvServer;
const DOMAIN = "web-admin";

interface Reply {
  observation: {
    text: string;
    available_actions: string[];
    task_id: string;
    synthetic?: { reasoning: string };
  };
  reward: number | null;
  done: boolean;
  metadata: { episode_id: string; run_id: string; trajectory_id: string };
}

async function post(
  route: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** OpenEnv's error payload: `{ type: "error", data: { message, code } }`. */
function error(reply: { json: Record<string, unknown> }): { message: string; code: string } {
  return reply.json.data as { message: string; code: string };
}

beforeAll(async () => {
  t = await createServerTestDb();
  await importTrajectoriesFile(t.db, path.join(process.cwd(), "samples", "web-admin.jsonl"));
  server = await startTestEnvServer(t, { databaseUrl: t.url });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe("the environment server on an imported domain", () => {
  it("plays synthetic episodes from the logged start states with the logged actions, and records them", async () => {
    const task = await t.db.task.findFirstOrThrow({
      where: { domain: DOMAIN, split: "test" },
      orderBy: { id: "asc" },
    });
    const firstLogged = await t.db.step.findFirstOrThrow({
      where: { index: 0, trajectory: { taskId: task.id, source: "offline" } },
    });
    // A held-out (test) task: only an evaluation episode may play it.
    const refused = await post(`/${DOMAIN}/reset`, { task_id: task.id });
    expect(refused.status).toBe(422);
    expect(error(refused).message).toMatch(/evaluation: true/);
    const reset = await post(`/${DOMAIN}/reset`, { task_id: task.id, evaluation: true });
    expect(reset.status).toBe(200);
    let reply = reset.json as unknown as Reply;
    expect(reply.observation.text).toBe(firstLogged.state);
    expect(reply.observation.available_actions).toEqual(firstLogged.stateActions);
    const episodeId = reply.metadata.episode_id;
    let steps = 0;
    while (!reply.done) {
      const action = reply.observation.available_actions[0];
      expect(action).toBeDefined();
      const step = await post(`/${DOMAIN}/step`, { episode_id: episodeId, action });
      expect(step.status).toBe(200);
      reply = step.json as unknown as Reply;
      expect(reply.observation.synthetic?.reasoning.length).toBeGreaterThan(0);
      steps++;
      expect(steps).toBeLessThanOrEqual(50);
    }
    await server.service.settle();
    const trajectory = await t.db.trajectory.findUniqueOrThrow({
      where: { id: reply.metadata.trajectory_id },
      include: { run: true, steps: { orderBy: { index: "asc" } } },
    });
    expect(trajectory.domain).toBe(DOMAIN);
    expect(trajectory.source).toBe("synthetic");
    expect(trajectory.taskId).toBe(task.id);
    expect(trajectory.status).toBe("done");
    expect(trajectory.purpose).toBe("eval");
    expect(trajectory.run?.domain).toBe(DOMAIN);
    expect(trajectory.run?.kind).toBe("external");
    expect(trajectory.steps).toHaveLength(steps);
    // No real environment: no real answer beside the model's.
    expect(trajectory.steps.every((s) => s.realNextState === null && s.realReward === null)).toBe(true);
  });

  it("hands out the domain's own train tasks to a GRPO group from the curriculum", async () => {
    const a = (await post(`/${DOMAIN}/reset`, { group: "g1" })).json as unknown as Reply;
    const b = (await post(`/${DOMAIN}/reset`, { group: "g1" })).json as unknown as Reply;
    expect(a.observation.task_id).toBe(b.observation.task_id);
    const task = await t.db.task.findUniqueOrThrow({ where: { id: a.observation.task_id } });
    expect(task).toMatchObject({ domain: DOMAIN, split: "train", origin: "imported" });
  });

  it("refuses real episodes, unknown domains, other domains' tasks and real-environment methods, writing no run", async () => {
    const runsBefore = await t.db.run.count();
    const real = await post(`/${DOMAIN}/real/reset`, {});
    expect(real.status).toBe(422);
    expect(error(real).message).toMatch(/exists only as imported logs and has no real environment/);
    const unknown = await post("/reset", { domain: "moon" });
    expect(unknown.status).toBe(404);
    expect(error(unknown).code).toBe("UNKNOWN_DOMAIN");
    expect(error(unknown).message).toMatch(/unknown domain "moon"/);
    const method = await post("/runs", { config: { domain: DOMAIN, method: "dreamgym-s2r" } });
    expect(method.status).toBe(422);
    expect(error(method).message).toMatch(
      /method dreamgym-s2r trains in a real environment, and imported domain "web-admin" has none/,
    );
    const noDomain = await post("/runs", { config: { domain: "moon" } });
    expect(noDomain.status).toBe(422);
    expect(await t.db.run.count()).toBe(runsBefore);
    const wrongTask = await post(`/${DOMAIN}/reset`, { task_id: "shop:train:0" });
    expect(wrongTask.status).toBe(404);
    expect(error(wrongTask).message).toMatch(/No web-admin task with id shop:train:0 \(e\.g\. web-admin:/);
  });

  it("records into an external run created for the domain", async () => {
    const created = await post("/runs", { name: "trl on web-admin", config: { domain: DOMAIN } });
    expect(created.status).toBe(200);
    const runId = created.json.run_id as string;
    const reply = (await post(`/runs/${runId}/reset`, { seed: 3 })).json as unknown as Reply;
    expect(reply.metadata.run_id).toBe(runId);
    await post("/step", {
      episode_id: reply.metadata.episode_id,
      action: reply.observation.available_actions[0],
    });
    await server.service.settle();
    expect(await t.db.trajectory.count({ where: { runId, domain: DOMAIN, source: "synthetic" } })).toBe(1);
  });
});
