import { afterAll, beforeAll, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { runTraining } from "@/core/train/run";
import { collectOffline } from "@/server/collect/collectOffline";
import type { EnvServer } from "@/server/envServer/server";
import { closeIdleSessions } from "@/server/remoteEnv/client";
import { registerRemoteDomain } from "@/server/remoteEnv/registry";
import { RemoteDomain } from "@/server/remoteEnv/remoteDomain";
import { runDeps } from "@/server/train/runDeps";
import { createServerTestDb, startTestEnvServer } from "./helpers/envServerFixture";
import type { TestDb } from "./helpers/testDb";

/**
 * DreamGym's own environment server, in real mode, registered as a remote domain over OpenEnv's WebSocket: the shop
 * played from outside, as a user's WebShop server would be. Offline collection, a real-env GRPO run and its test
 * evaluation go through it.
 */
let t: TestDb;
let server: EnvServer;

beforeAll(async () => {
  t = await createServerTestDb();
  server = await startTestEnvServer(t, { databaseUrl: t.url });
}, 120_000);

afterAll(async () => {
  await closeIdleSessions();
  await server?.close();
  await t?.cleanup();
});

it("trains in DreamGym's own env server registered as a remote domain (OpenEnv over WebSocket)", async () => {
  const { health } = await registerRemoteDomain(t.db, {
    name: "shop-outside",
    url: `${server.url}/shop/real`,
    protocol: "openenv-ws",
    concurrency: 4,
    maxSteps: 15,
    // The server numbers each split's tasks from 0, and refuses test tasks outside evaluations.
    tasks: { train: { first: 0, count: 1_000 }, test: { first: 0, count: 100 } },
  });
  expect(health.ok, health.message).toBe(true);
  expect(health.sample?.instruction).toMatch(/^i need|^i'm looking|^find|^i want|./i);

  const collected = await collectOffline(t.db, {
    domain: "shop-outside",
    policy: "random",
    episodes: 8,
    split: "train",
    epsilon: 0,
    seed: 1,
    offset: 0,
  });
  expect(collected.episodes).toBe(8);
  expect(collected.transitions).toBeGreaterThan(8);

  const config = parseRunConfig({
    method: "real",
    domain: "shop-outside",
    iterations: 2,
    tasksPerBatch: 2,
    groupSize: 4,
    seedTasks: 4,
    evaluation: { interval: 2, episodes: 4 },
    rollouts: { concurrency: 4 },
  });
  const deps = await runDeps(t.db, config);
  expect(deps.domain).toBeInstanceOf(RemoteDomain);
  const result = await runTraining(config, deps);
  await deps.close();
  expect(result.iterations).toBe(2);
  expect(result.realTransitions).toBeGreaterThan(0);
  expect(result.final.episodes).toBe(4);
  // Every episode the run played was recorded by the server, as any trainer's would be (written by its close).
  await closeIdleSessions();
  await server.close();
  const recorded = await t.db.trajectory.groupBy({ by: ["domain", "source"], _count: true });
  const played = await t.db.trajectory.count({ where: { domain: "shop", source: "real" } });
  expect(played, JSON.stringify(recorded)).toBeGreaterThanOrEqual(2 * 2 * 4 + 4);
}, 300_000);
