/**
 * How episodes end when their client or their server goes away, on 127.0.0.1 with a real SQLite database: a client
 * that leaves mid-step leaves a trajectory whose length is its stored steps, and a server killed with -9
 * (`npm run env-server` in a process of its own) leaves live episodes that the next server start marks abandoned
 * before it serves, while another running server's live episodes are left alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ShopEnvironment } from "@/core/envs/shop/env";
import { collectOffline } from "@/server/collect/collectOffline";
import { createServerTestDb, startTestEnvServer } from "../../../tests/helpers/envServerFixture";
import { call, WsSession } from "../../../tests/helpers/envServerWire";
import type { TestDb } from "../../../tests/helpers/testDb";
import type { EnvServer } from "./server";

const ROOT = path.resolve(import.meta.dirname, "../../..");
let t: TestDb;

beforeAll(async () => {
  t = await createServerTestDb();
  // Not empty, so that a server started on it does not seed the demo data first.
  await collectOffline(t.db, {
    domain: "household",
    policy: "expert",
    episodes: 2,
    split: "train",
    epsilon: 0,
    seed: 1,
    offset: 0,
  });
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("a client that leaves mid-step", () => {
  it("leaves a trajectory whose length equals its stored steps", async () => {
    // Inline writes: a writer thread's connection, closed, would drop this process's SQLite locks on the file
    // (POSIX locks are per process), and the server process of the next test would then reset the shared WAL index.
    const server = await startTestEnvServer(t);
    let release = () => {};
    let entered = false;
    const real = ShopEnvironment.prototype.step;
    const held = vi.spyOn(ShopEnvironment.prototype, "step").mockImplementation(async function (
      this: ShopEnvironment,
      action: string,
    ) {
      entered = true;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return real.call(this, action);
    });
    try {
      const ws = await WsSession.open(server.url, "/shop/real/ws");
      const reset = await ws.ask({ type: "reset", data: { seed: 1 } });
      ws.send({ type: "step", data: { action: "search[red shoes]" } });
      await until("the step to start", () => entered);
      ws.ws.terminate();
      await until("the server to see the client go", () => server.service.sessions.size === 0);
      release();
      await server.service.settle();
      const stored = await t.db.trajectory.findUniqueOrThrow({
        where: { id: reset.json.data.metadata.trajectory_id },
        include: { steps: true },
      });
      expect(stored.status).toBe("abandoned");
      expect(stored.steps).toHaveLength(1);
      expect(stored.length).toBe(stored.steps.length);
    } finally {
      held.mockRestore();
      await server.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `npm run env-server` on the test's database, as its own process; resolves once it answers /health. */
async function envServerProcess(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "envServer.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      ENV_SERVER_PORT: String(port),
      ENV_SERVER_HOST: "127.0.0.1",
    },
    stdio: "ignore",
  });
  await until("the environment server process to answer", async () => {
    if (child.exitCode !== null) throw new Error(`the environment server exited (${child.exitCode})`);
    return fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
  });
  return child;
}

describe("a server killed with -9", () => {
  it("leaves live episodes that the next start marks abandoned before serving; a running server's stay live", async () => {
    const port = await freePort();
    const child = await envServerProcess(port);
    const base = `http://127.0.0.1:${port}`;
    const reset = await call(base, "POST", "/household/real/reset", { seed: 1 });
    await call(base, "POST", "/step", { episode_id: reset.json.metadata.episode_id, action: "look" });
    const id = reset.json.metadata.trajectory_id as string;
    await until(
      "the step to be stored",
      async () => (await t.db.step.count({ where: { trajectoryId: id } })) === 1,
    );
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id } })).status).toBe("live");

    // Restarted at once, well within the dead server's lease: its process is gone, so its episodes are too.
    const next = await startTestEnvServer(t);
    let beside: EnvServer | undefined;
    try {
      expect(await t.db.trajectory.findUniqueOrThrow({ where: { id } })).toMatchObject({
        status: "abandoned",
        length: 1,
      });
      const own = await call(next.url, "POST", "/household/real/reset", { seed: 2 });
      await next.service.settle();
      beside = await startTestEnvServer(t);
      const live = await t.db.trajectory.findUniqueOrThrow({
        where: { id: own.json.metadata.trajectory_id },
      });
      expect(live.status).toBe("live");
    } finally {
      await beside?.close();
      await next.close();
    }
  }, 120_000);
});
