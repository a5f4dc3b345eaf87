/**
 * DreamGym's own environment server, in real mode, as a live peer of the clients: its OpenEnv routes (WebSocket
 * and HTTP) and its AgentGym WebShop and ALFWorld shapes, started on 127.0.0.1 with a real SQLite database. Each
 * protocol plays the expert through core's rollout(), and every observation, reward and outcome must equal the
 * same episode played in process; a test task goes out as a test task. It also measures what a remote step costs
 * beyond an in-process one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRealDomain } from "@/core/envs/registry";
import type { RemoteEnvSpecInput, RemoteProtocol } from "@/core/envs/remote/spec";
import { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { rollout } from "@/core/rollout";
import type { Environment, Step, Task } from "@/core/types";
import { createServerTestDb, startTestEnvServer } from "../../../../tests/helpers/envServerFixture";
import { onOwnPort } from "../../../../tests/helpers/ownPort";
import type { TestDb } from "../../../../tests/helpers/testDb";
import type { EnvServer } from "../../envServer/server";
import { checkHealth } from "./health";
import { openEpisodes } from "./limiter";
import { closeIdleSessions } from "./pool";
import { probeTask } from "./probe";
import { RemoteEnvironment } from "./remoteEnvironment";

let t: TestDb;
let server: EnvServer;

const start = (port: number) => startTestEnvServer(t, { port, databaseUrl: t.url });

beforeAll(async () => {
  t = await createServerTestDb();
  server = await onOwnPort(start);
}, 120_000);

afterAll(async () => {
  await closeIdleSessions();
  await server?.close();
  await t?.cleanup();
});

const PEERS: Array<{ protocol: RemoteProtocol; domain: "shop" | "household"; base: string }> = [
  { protocol: "openenv-ws", domain: "shop", base: "/shop/real" },
  { protocol: "openenv-http", domain: "household", base: "/household/real" },
  { protocol: "agentgym-webshop", domain: "shop", base: "/agentgym/webshop" },
  { protocol: "agentgym-alfworld", domain: "household", base: "/agentgym/alfworld" },
];

function spec(peer: (typeof PEERS)[number], over: Partial<RemoteEnvSpecInput> = {}): RemoteEnvSpec {
  return RemoteEnvSpec.parse({
    name: `dreamgym-${peer.protocol}`,
    url: `${server.url}${peer.base}`,
    protocol: peer.protocol,
    concurrency: 2,
    resetTimeoutMs: 20_000,
    stepTimeoutMs: 20_000,
    downAfterMs: 5_000,
    // DreamGym numbers each split's tasks from 0.
    tasks: { train: { first: 0, count: 1_000 }, test: { first: 0, count: 100 } },
    ...over,
  });
}

/** DreamGym's task index is the environment's task number here (both splits start at 0). */
const numberOf = (task: Task) => Number(task.id.split(":").at(-1));

/** Each step's time, by protocol and for the in-process environment, after each peer's first episode (warm-up). */
const stepMs = new Map<string, number[]>();

function timed(env: Environment, key: string, record: boolean): Environment {
  const times = stepMs.get(key) ?? [];
  stepMs.set(key, times);
  return {
    domain: env.domain,
    reset: (task) => env.reset(task),
    close: () => env.close?.() ?? Promise.resolve(),
    async step(action) {
      const started = performance.now();
      const result = await env.step(action);
      if (record) times.push(performance.now() - started);
      return result;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

describe.each(PEERS)("$protocol against DreamGym's $domain", (peer) => {
  it("plays the expert exactly as the in-process environment does", async () => {
    const domain = getRealDomain(peer.domain);
    for (const [i, task] of domain.tasks("train", 4).entries()) {
      const env = new RemoteEnvironment(spec(peer), numberOf);
      const remote = await rollout(timed(env, peer.protocol, i > 0), domain.expert(), task, domain.maxSteps);
      await env.close();
      const local = await rollout(
        timed(domain.createEnvironment(), "in process", i > 0),
        domain.expert(),
        task,
        domain.maxSteps,
      );
      expect(remote.steps.map((s) => s.action)).toEqual(local.steps.map((s) => s.action));
      expect(remote.steps.map((s) => s.next.text)).toEqual(local.steps.map((s) => s.next.text));
      expect(remote.steps.map((s) => s.reward)).toEqual(local.steps.map((s) => s.reward));
      expect([remote.success, remote.totalReward]).toEqual([local.success, local.totalReward]);
      expect(remote.success).toBe(true);
    }
    expect(openEpisodes(spec(peer).name).open).toBe(0);
  });

  it("reads train task 0's instruction, and reports the server healthy", async () => {
    const instruction = getRealDomain(peer.domain).task("train", 0).instruction;
    expect((await probeTask(spec(peer), 0)).instruction).toBe(instruction);
    const report = await checkHealth(spec(peer));
    expect(report.ok, report.message).toBe(true);
    expect(report.sample?.instruction).toBe(instruction);
    expect(report.sample?.actions).toBeGreaterThan(0);
  });
});

it("sends a test task as a test task (split, index, evaluation)", async () => {
  const domain = getRealDomain("shop");
  const task = domain.task("test", 3);
  const env = new RemoteEnvironment(spec(PEERS[0] as (typeof PEERS)[number]), numberOf);
  const first = await env.reset(task);
  await env.close();
  expect(first.text).toBe((await domain.createEnvironment().reset(task)).text);
});

it("recovers from a restart of the server mid-episode (every session lost) by the rebuild", async () => {
  for (const peer of PEERS) {
    const domain = getRealDomain(peer.domain);
    const task = domain.task("train", 7);
    const env = new RemoteEnvironment(spec(peer), numberOf);
    const local = domain.createEnvironment();
    const policy = domain.expert();
    const steps: Step[] = [];
    let observation = await env.reset(task);
    expect(observation.text).toBe((await local.reset(task)).text);
    for (let i = 0; i < 3; i++) {
      // The server goes away (its sessions with it) and comes back on the same port while this step is asked.
      let back: Promise<EnvServer> | undefined;
      if (i === 1) {
        const port = server.port;
        await server.close();
        back = start(port);
      }
      const { action } = await policy.act(task, steps, observation);
      const [remote, mirror] = [await env.step(action), await local.step(action)];
      if (back) server = await back;
      expect([remote.observation.text, remote.reward, remote.done]).toEqual([
        mirror.observation.text,
        mirror.reward,
        mirror.done,
      ]);
      steps.push({
        state: observation,
        action,
        next: remote.observation,
        reward: remote.reward,
        done: remote.done,
        success: remote.success,
        valid: remote.valid,
      });
      observation = remote.observation;
      if (remote.done) break;
    }
    expect(env.rebuilds, peer.protocol).toBe(1);
    await env.close();
  }
});

it("reports what a remote step costs beyond an in-process one", () => {
  const figures = [...stepMs].map(
    ([key, times]) => `${key} ${median(times).toFixed(2)} ms (${times.length} steps)`,
  );
  // The server records every step in its database as it goes: that is part of what a remote step costs here.
  console.info(`median step against DreamGym's server: ${figures.join(", ")}`);
  expect(stepMs.get("openenv-ws")?.length).toBeGreaterThan(0);
});
