/**
 * The standard-library Python client and the trainer examples (adapters/python) against the environment server on
 * 127.0.0.1, run by python3 in processes of their own: the client over TLS (a self-signed certificate made here
 * with openssl, a TLS front on the server), and the TRL, verl and verl-agent examples fed completions with no
 * action and turns after the end, with the trainer-side objects stubbed.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectOffline } from "@/server/collect/collectOffline";
import { createServerTestDb, startTestEnvServer } from "../../../tests/helpers/envServerFixture";
import { runAdapterScript } from "../../../tests/helpers/pythonAdapter";
import type { TestDb } from "../../../tests/helpers/testDb";
import type { EnvServer } from "./server";

let t: TestDb;
let server: EnvServer;

beforeAll(async () => {
  t = await createServerTestDb();
  // The TRL example's run plays synthetic episodes: the shop needs offline data.
  await collectOffline(t.db, {
    domain: "shop",
    policy: "noisy",
    episodes: 20,
    split: "train",
    epsilon: 0.3,
    seed: 1,
    offset: 0,
  });
  server = await startTestEnvServer(t);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

/** A python3 script of adapters/python. */
function python(script: string, args: string[]): Promise<Record<string, unknown>> {
  // No CA file from the environment: the TLS test checks that certificates are verified by default.
  return runAdapterScript(script, args, { DREAMGYM_ENV_CA_FILE: "" });
}

describe("the Python client over TLS", () => {
  // Node's crypto cannot issue an X.509 certificate by itself: openssl does (.ci/run installs it where missing).
  it("speaks https and wss with the certificate checked against ca_file, and refuses the server without it", async () => {
    const dir = fs.mkdtempSync(path.join(t.dir, "tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-keyout", key, "-out", cert],
        ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
      ],
      { stdio: "ignore" },
    );
    // TLS in front of the server, as a deployment's proxy would put it.
    const front = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (socket) => {
      const upstream = net.connect(server.port, "127.0.0.1");
      socket.pipe(upstream).pipe(socket);
      socket.on("error", () => upstream.destroy());
      upstream.on("error", () => socket.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = front.address() as net.AddressInfo;
      const out = (await python("tls_selftest.py", [`https://127.0.0.1:${port}`, cert])) as {
        ws: { episode_id: string; step: number };
        http: { step: number };
        without_ca: { ws: string; http: string };
      };
      expect(out.ws.step).toBe(1);
      expect(out.http.step).toBe(1);
      expect(out.without_ca.ws).toMatch(/^certificate: /);
      expect(out.without_ca.http).toMatch(/^certificate: /);
      await server.service.settle();
      const played = await t.db.trajectory.findUniqueOrThrow({ where: { episodeId: out.ws.episode_id } });
      expect(played.length).toBe(1);
    } finally {
      front.close();
    }
  });
});

describe("the trainer examples", () => {
  interface Out {
    trl: {
      episodes: number;
      rewards_are_floats: boolean;
      tool_done: boolean;
      tool_steps: number;
      tool_after_end: string;
      run_id: string;
    };
    verl: {
      empty: { done: boolean; reward: number; valid: boolean };
      done: boolean;
      after_end: [boolean, string, number];
      unfinished: string;
    };
    verl_agent: {
      steps: number;
      slot1_done_at: number | null;
      finished_rewards: number[];
      after_all_done: { rewards: number[]; dones: boolean[] };
    };
  }
  let out: Out;
  beforeAll(async () => {
    out = (await python("examples_selftest.py", [server.url])) as unknown as Out;
    await server.service.settle();
  }, 180_000);

  it("survive empty completions: TRL's rollout and tool env, verl's interaction play them as invalid actions", async () => {
    expect(out.trl).toMatchObject({ episodes: 4, rewards_are_floats: true, tool_done: true });
    expect(out.verl.empty).toEqual({ done: false, reward: 0, valid: false });
    expect(out.verl.done).toBe(true);
    const empties = await t.db.step.count({
      where: { trajectory: { runId: out.trl.run_id }, action: "", valid: false, reward: 0 },
    });
    expect(empties).toBeGreaterThan(4);
  });

  it("survive finished episodes: a turn after the end plays nothing, and an unfinished verl sample is closed", async () => {
    expect(out.trl.tool_after_end).toBe("Episode over.");
    expect(out.verl.after_end).toEqual([true, "Episode over.", 0]);
    const unfinished = await t.db.trajectory.findUniqueOrThrow({ where: { episodeId: out.verl.unfinished } });
    expect(unfinished.status).toBe("abandoned");
    expect(server.service.sessions.size).toBe(0);
  });

  it("the verl-agent example does not step finished slots (EPISODE_DONE never reached)", () => {
    const agent = out.verl_agent;
    expect(agent.after_all_done).toEqual({ rewards: [0, 0], dones: [true, true] });
    expect(agent.finished_rewards.every((r) => r === 0)).toBe(true);
    if (agent.slot1_done_at !== null && agent.slot1_done_at < agent.steps)
      expect(agent.finished_rewards.length).toBe(agent.steps - agent.slot1_done_at);
  });
});
