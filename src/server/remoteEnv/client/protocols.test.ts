/**
 * Each protocol against a fake server of its shape on 127.0.0.1, without faults: an episode played to its end
 * (observations, actions, reward, success, validity), the bearer token on every request and on the WebSocket
 * upgrade, every session closed afterwards, and the instruction read where each protocol keeps it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REMOTE_PROTOCOLS } from "@/core/envs/remote/spec";
import { type FakeEnvServer, GAME_ACTIONS, startFakeEnv } from "./fakeEnvFixture";
import { openEpisodes } from "./limiter";
import { closeIdleSessions } from "./pool";
import { probeTask } from "./probe";
import { RemoteEnvironment } from "./remoteEnvironment";
import { fakeSpec, numberOf, playToEnd, task } from "./testing";

let fake: FakeEnvServer;
beforeAll(async () => {
  fake = await startFakeEnv();
  fake.token = "s3cret";
});
afterAll(() => fake.stop());

describe.each(REMOTE_PROTOCOLS)("%s", (protocol) => {
  it("plays an episode to its end and closes its session", async () => {
    const spec = fakeSpec(fake, protocol, { token: "s3cret" });
    const env = new RemoteEnvironment(spec, numberOf);
    const openBefore = fake.open;
    fake.seen.authorization.length = 0;
    const first = await env.reset(task(3));
    expect(first.text).toContain("track 103: you stand at 0");
    if (protocol === "agentgym-webshop")
      expect(first.actions).toEqual(GAME_ACTIONS.map((a) => `click[${a}]`));
    else expect(first.actions).toEqual(GAME_ACTIONS);
    const invalid = await env.step("jump");
    if (protocol.startsWith("openenv")) expect(invalid.valid).toBe(false);
    else expect(invalid.valid).toBe(true); // AgentGym says nothing of validity
    const results = [await env.step("forward"), await env.step("forward"), await env.step("finish")];
    expect(results.map((r) => r.observation.text.replace(/^.*track/, "track"))).toEqual([
      "track 103: you stand at 1",
      "track 103: you stand at 2",
      "track 103: you stand at 2",
    ]);
    expect(results.map((r) => [r.reward, r.done, r.success])).toEqual([
      [0, false, false],
      [0, false, false],
      [1, true, true],
    ]);
    await env.close();
    expect(openEpisodes(spec.name).open).toBe(0);
    await closeIdleSessions(spec.name);
    // OpenEnv's HTTP has no close (its server ends episodes itself), nor has ALFWorld's server.
    if (protocol !== "openenv-http" && protocol !== "agentgym-alfworld") expect(fake.open).toBe(openBefore);
    expect(fake.seen.authorization.length).toBeGreaterThan(0);
    expect(new Set(fake.seen.authorization)).toEqual(new Set(["Bearer s3cret"]));
  });

  it("reads the task's instruction where the protocol keeps it", async () => {
    const probe = await probeTask(fakeSpec(fake, protocol, { token: "s3cret" }), 7);
    const expected = protocol === "agentgym" ? "track 7: you stand at 0" : fake.instruction(7);
    expect(probe.instruction).toBe(expected);
    expect(probe.observation.text).toContain("track 7");
  });
});

it("fails at once, naming the status, when the token is wrong (a refusal is not retried)", async () => {
  for (const protocol of ["openenv-ws", "agentgym-webshop"] as const) {
    const env = new RemoteEnvironment(fakeSpec(fake, protocol, { token: "wrong" }), numberOf);
    const started = performance.now();
    await expect(env.reset(task(0))).rejects.toThrow(/401/);
    expect(performance.now() - started).toBeLessThan(1_000);
  }
});

it("applies the registration's instruction pattern to the first observation", async () => {
  const spec = fakeSpec(fake, "agentgym", { token: "s3cret", instructionPattern: "track (\\d+)" });
  expect((await probeTask(spec, 42)).instruction).toBe("42");
  expect(await playToEnd(new RemoteEnvironment(spec, numberOf))).toHaveLength(3);
});

it("keeps AgentGym sessions between episodes: one /create serves episode after episode", async () => {
  const spec = fakeSpec(fake, "agentgym-alfworld", { token: "s3cret", concurrency: 2 });
  const creates = fake.seen.creates;
  for (const i of [0, 1, 2]) {
    const env = new RemoteEnvironment(spec, numberOf);
    expect((await playToEnd(env, task(i))).at(-1)?.success).toBe(true);
    await env.close();
  }
  expect(fake.seen.creates - creates).toBe(1);
});

it("speaks TLS: https and wss URLs", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "remote-env-tls-"));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  const secure = await startFakeEnv({
    key: fs.readFileSync(key, "utf8"),
    cert: fs.readFileSync(cert, "utf8"),
  });
  // The certificate is self-signed: trusted for this test only (Node reads the setting at each TLS connection).
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    for (const protocol of ["openenv-ws", "agentgym-webshop"] as const) {
      const spec = fakeSpec(secure, protocol, {
        url: `${secure.url.replace(/^https/, protocol === "openenv-ws" ? "wss" : "https")}${protocol === "openenv-ws" ? "/openenv" : "/webshop"}`,
      });
      expect((await playToEnd(new RemoteEnvironment(spec, numberOf))).at(-1)?.success).toBe(true);
    }
  } finally {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
    await closeIdleSessions();
    await secure.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it("a reset during an episode ends it and plays the new one in the same slot", async () => {
  const spec = fakeSpec(fake, "openenv-ws", { token: "s3cret", concurrency: 1 });
  const env = new RemoteEnvironment(spec, numberOf);
  const openBefore = fake.open;
  await env.reset(task(1));
  await env.step("forward");
  expect((await env.reset(task(2))).text).toContain("track 102: you stand at 0");
  expect(openEpisodes(spec.name).open).toBe(1);
  expect(fake.open).toBe(openBefore + 1);
  await env.close();
  await env.close();
  expect(openEpisodes(spec.name).open).toBe(0);
});
