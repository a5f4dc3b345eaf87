/**
 * checkHealth against the fake servers: a healthy environment of each protocol reports its train task 0's
 * instruction and action count; every failure (nothing listening, a wrong path, a reset that fails or hangs) is
 * reported, never thrown, with the URL, the status and what the server said, without the retries an episode gets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REMOTE_PROTOCOLS } from "@/core/envs/remote/spec";
import { type FakeEnvServer, startFakeEnv } from "./fakeEnvFixture";
import { checkHealth } from "./health";
import { slotsFor } from "./limiter";
import { fakeSpec } from "./testing";

let fake: FakeEnvServer;
beforeAll(async () => {
  fake = await startFakeEnv();
});
afterAll(() => fake.stop());

describe.each(REMOTE_PROTOCOLS)("%s", (protocol) => {
  it("reports a healthy environment with train task 0's instruction", async () => {
    const spec = fakeSpec(fake, protocol, {
      tasks: { train: { first: 40, count: 10 }, test: { first: 0, count: 5 } },
    });
    const report = await checkHealth(spec);
    expect(report.ok, report.message).toBe(true);
    expect(report.message).toContain("number 40");
    expect(report.sample?.actions).toBe(2);
    expect(report.sample?.instruction).toContain("40");
    expect(report.latencyMs).toBeGreaterThan(0);
  });
});

describe("an environment that is not usable", () => {
  it("nothing listening: the URL and a refused connection, at once", async () => {
    const gone = await startFakeEnv();
    await gone.stop();
    for (const protocol of ["openenv-ws", "agentgym-webshop"] as const) {
      const spec = fakeSpec(gone, protocol);
      const started = performance.now();
      const report = await checkHealth(spec);
      expect(report.ok).toBe(false);
      expect(report.message).toContain(`${gone.url.replace(/^http/, "http")}`);
      expect(report.message).toMatch(/connection refused/);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it("a wrong path: the status and the body", async () => {
    const spec = { ...fakeSpec(fake, "openenv-http"), url: `${fake.url}/nowhere` };
    const report = await checkHealth(spec);
    expect(report.ok).toBe(false);
    expect(report.message).toContain(`GET ${fake.url}/nowhere/health`);
    expect(report.message).toContain('HTTP 404: {"detail":"Not Found"}');
  });

  it("a reset that fails or hangs: what was asked and what came back", async () => {
    fake.faults.push({ on: "reset", kind: "500" });
    const failed = await checkHealth(fakeSpec(fake, "agentgym"));
    expect(failed.ok).toBe(false);
    expect(failed.message).toContain(
      `POST ${fake.url}/agentgym/reset: HTTP 500: {"detail":"Internal Server Error"}`,
    );
    fake.faults.push({ on: "reset", kind: "hang" });
    const hung = await checkHealth(fakeSpec(fake, "openenv-ws", { resetTimeoutMs: 200 }));
    expect(hung.ok).toBe(false);
    expect(hung.message).toMatch(/reset: no answer within 200 ms/);
  });

  it("every slot in use: the server's answer, without a probe", async () => {
    const spec = fakeSpec(fake, "agentgym", { concurrency: 1, resetTimeoutMs: 100 });
    const release = await slotsFor(spec.name, 1).acquire();
    const report = await checkHealth(spec);
    release();
    expect(report.ok).toBe(true);
    expect(report.sample).toBeUndefined();
    expect(report.message).toMatch(/all 1 episode slots are in use/);
  });
});
