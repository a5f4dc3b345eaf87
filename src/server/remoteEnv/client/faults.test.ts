/**
 * The clients through a remote environment's faults, against the fake servers on 127.0.0.1 with small timeouts:
 * a failed step (500, a hang past the timeout, a dropped connection, a reply that is not JSON or lacks its
 * fields) is retried by rebuilding the episode (fresh session, same task, actions replayed); a server killed and
 * restarted mid-episode is recovered from; a replay that goes elsewhere and replies that stay unusable break the
 * episode; a server that stays down stops it with its name and URL after downAfterMs; and no path leaves an
 * episode slot taken.
 */
import { describe, expect, it } from "vitest";
import { EnvironmentDown, EpisodeBroken } from "@/core/envs/remote/faults";
import type { RemoteProtocol } from "@/core/envs/remote/spec";
import { type FakeEnvServer, type FaultKind, startFakeEnv } from "./fakeEnvFixture";
import { openEpisodes } from "./limiter";
import { RemoteEnvironment } from "./remoteEnvironment";
import { fakeSpec, numberOf, task } from "./testing";

/** Each test has a server of its own, so that the tests (mostly waiting out backoffs) run at once. */
async function withFake(test: (fake: FakeEnvServer) => Promise<void>): Promise<void> {
  const fake = await startFakeEnv();
  try {
    await test(fake);
  } finally {
    await fake.stop();
  }
}

const FAULTS: FaultKind[] = ["500", "hang", "drop", "badJson", "missing"];
const ALL: RemoteProtocol[] = [
  "openenv-ws",
  "openenv-http",
  "agentgym",
  "agentgym-webshop",
  "agentgym-alfworld",
];

/** An environment one step into task 5 (number 105), and what the server had seen before the test's fault. */
async function oneStepIn(fake: FakeEnvServer, protocol: RemoteProtocol, over = {}) {
  const log: string[] = [];
  const spec = fakeSpec(fake, protocol, { stepTimeoutMs: 400, resetTimeoutMs: 400, ...over });
  const env = new RemoteEnvironment(spec, numberOf, { log: (line) => log.push(line) });
  await env.reset(task(5));
  expect((await env.step("forward")).observation.text).toContain("at 1");
  return { env, spec, log, resets: fake.seen.resets.length };
}

describe.concurrent.each(["openenv-ws", "openenv-http", "agentgym-webshop"] as const)("%s", (protocol) => {
  it.each(FAULTS)("a step that meets %s is retried by rebuilding the episode", (kind) =>
    withFake(async (fake) => {
      const { env, spec, log, resets } = await oneStepIn(fake, protocol);
      fake.faults.push({ on: "step", kind });
      const r = await env.step("forward");
      expect(r.observation.text).toContain("track 105: you stand at 2");
      expect(env.rebuilds).toBe(1);
      // Rebuilt: one fresh reset to the same task, then the first step replayed before the second was taken.
      expect(fake.seen.resets.slice(resets)).toEqual([105]);
      expect(log.join("\n")).toMatch(/retry 1 in 200 ms/);
      expect((await env.step("finish")).success).toBe(true);
      expect(openEpisodes(spec.name).open).toBe(0);
    }),
  );

  it("a reset that fails is retried with a fresh session", () =>
    withFake(async (fake) => {
      const spec = fakeSpec(fake, protocol, { resetTimeoutMs: 400 });
      const env = new RemoteEnvironment(spec, numberOf);
      fake.faults.push({ on: "reset", kind: "500" }, { on: "reset", kind: "hang" });
      expect((await env.reset(task(1))).text).toContain("track 101: you stand at 0");
      await env.close();
    }));
});

describe.concurrent("faults", () => {
  it("a step whose follow-up read fails (WebShop's action list) is not taken twice", () =>
    withFake(async (fake) => {
      const { env, resets } = await oneStepIn(fake, "agentgym-webshop");
      fake.faults.push({ on: "available_actions", kind: "drop" });
      expect((await env.step("forward")).observation.text).toContain("at 2");
      expect(fake.seen.resets.slice(resets)).toEqual([105]);
      await env.close();
    }));

  it.each(ALL)(
    "%s: a server killed mid-episode is recovered from by the rebuild, within downAfterMs",
    (protocol) =>
      withFake(async (fake) => {
        const { env, spec } = await oneStepIn(fake, protocol, { downAfterMs: 3_000 });
        const started = performance.now();
        const back = fake.restart(400);
        const r = await env.step("forward");
        await back;
        expect(r.observation.text).toContain("track 105: you stand at 2");
        expect(env.rebuilds).toBe(1);
        expect(performance.now() - started).toBeLessThan(spec.downAfterMs);
        await env.close();
      }),
  );

  it("a replay that sees another observation breaks the episode, and frees its slot", () =>
    withFake(async (fake) => {
      const { env, spec } = await oneStepIn(fake, "agentgym");
      fake.variant++;
      fake.faults.push({ on: "step", kind: "500" });
      const error = await env.step("forward").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EpisodeBroken);
      expect((error as EpisodeBroken).message).toMatch(/went elsewhere at the reset/);
      expect(openEpisodes(spec.name).open).toBe(0);
      await expect(env.step("forward")).rejects.toThrow(/no episode is open/);
    }));

  it("replies that stay unusable break the episode after three in a row; two are survived", () =>
    withFake(async (fake) => {
      const { env } = await oneStepIn(fake, "openenv-ws");
      fake.faults.push({ on: "step", kind: "badJson" }, { on: "step", kind: "missing" });
      expect((await env.step("forward")).observation.text).toContain("at 2");
      fake.faults.push(...(["badJson", "missing", "badJson"] as const).map((kind) => ({ on: "step", kind })));
      const error = await env.step("finish").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EpisodeBroken);
      expect((error as Error).message).toMatch(/3 unusable replies in a row/);
    }));

  it("a server that stays down stops the episode with its name and URL after downAfterMs, and frees its slot", async () => {
    const gone = await startFakeEnv();
    const spec = fakeSpec(gone, "agentgym-alfworld", { downAfterMs: 800, stepTimeoutMs: 150 });
    const env = new RemoteEnvironment(spec, numberOf);
    await env.reset(task(0));
    await gone.stop();
    const started = performance.now();
    const error = await env.step("forward").catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(EnvironmentDown);
    const down = error as EnvironmentDown;
    expect(down.environment).toBe(spec.name);
    expect(down.url).toBe(spec.url);
    expect(down.message).toContain(spec.url);
    expect(down.lastError).toMatch(/connection refused/);
    expect(took).toBeGreaterThanOrEqual(800);
    expect(took).toBeLessThan(800 + 600);
    expect(openEpisodes(spec.name).open).toBe(0);
  });
});
