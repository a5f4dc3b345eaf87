import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";
import { createTestDb } from "./helpers/testDb";

/**
 * The helpdesk sample environment (samples/envs/helpdesk): a Python server outside the app that speaks AgentGym's
 * generic text-environment protocol, checked over real HTTP.
 */
const DIR = path.resolve(import.meta.dirname, "..", "samples", "envs", "helpdesk");
const run = promisify(execFile);

interface Server {
  url: string;
  proc: ChildProcessWithoutNullStreams;
  /** SIGTERM, then the exit code and everything it printed. */
  stop(): Promise<{ code: number | null; stdout: string }>;
}

async function startServer(...args: string[]): Promise<Server> {
  const proc = spawn("python3", [path.join(DIR, "server.py"), "--port", "0", ...args]);
  let stdout = "";
  let stderr = "";
  proc.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15_000);
    proc.stdout.on("data", (chunk) => {
      stdout += chunk;
      const first = /^listening on (http:\/\/\S+)\n/.exec(stdout);
      if (first) {
        clearTimeout(timer);
        resolve(first[1] as string);
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  return {
    url,
    proc,
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      return { code: await exited, stdout };
    },
  };
}

interface Reply {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer, read field by field in each test
  json: any;
}

async function call(
  url: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(`${url}${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

const servers: Server[] = [];
let plain: Server;
let twin: Server;

beforeAll(async () => {
  [plain, twin] = await Promise.all([startServer(), startServer()]);
  servers.push(plain, twin);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function episodeOn(url: string, task: number): Promise<{ id: number; first: Reply }> {
  const { id } = (await call(url, "/create", {})).json;
  return { id, first: await call(url, "/reset", { id, data_idx: task }) };
}

describe("helpdesk sample environment", () => {
  it("speaks AgentGym's generic protocol: create, reset, step, observation, available_actions, detail, close", async () => {
    const url = plain.url;
    expect((await call(url, "/")).json).toMatch(/Helpdesk/);
    expect((await call(url, "/health")).json).toEqual({ status: "healthy" });
    const { id, first } = await episodeOn(url, 1000);
    expect(id).toEqual(expect.any(Number));
    expect(first.status).toBe(200);
    expect(Object.keys(first.json).sort()).toEqual(["available_actions", "done", "observation", "reward"]);
    expect(first.text).toContain('"reward":0.0');
    expect(first.json.done).toBe(false);
    const detail = (await call(url, `/detail?id=${id}`)).json;
    expect(detail).toMatchObject({ data_idx: 1000, steps: 0, done: false });
    // The instruction is on the first line, for `--instruction-pattern "Ticket: (.*)"`.
    expect(first.json.observation.split("\n")[0]).toBe(`Ticket: ${detail.instruction}`);
    expect(/Ticket: (.*)/.exec(first.json.observation)?.[1]).toBe(detail.instruction);
    expect((await call(url, `/observation?id=${id}`)).json).toBe(first.json.observation);
    expect((await call(url, `/available_actions?id=${id}`)).json).toEqual(first.json.available_actions);
    expect(first.json.available_actions).toContain("close_ticket");

    const lookup = first.json.available_actions.find((a: string) => a.startsWith("lookup_customer["));
    const stepped = await call(url, "/step", { id, action: lookup });
    expect(Object.keys(stepped.json).sort()).toEqual(["available_actions", "done", "observation", "reward"]);
    expect(stepped.text).toContain('"reward":0.0');
    expect(stepped.json.observation).toMatch(/^Customer record: \{/);
    expect((await call(url, `/detail?id=${id}`)).json.steps).toBe(1);

    expect((await call(url, "/close", { id })).json).toBe(true);
    const gone = await call(url, `/observation?id=${id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error).toMatch(/not valid/);
  });

  it("answers an invalid action with 'Nothing happens.', reward 0.0, and nothing changed", async () => {
    const url = plain.url;
    const { id, first } = await episodeOn(url, 3);
    const invalid = [
      { action: "" },
      { action: "   " },
      {},
      { action: 42 },
      { action: "dance[now]" },
      { action: "refund 12" },
      { action: "lookup_order[0]" },
      { action: "reply[refund_issued]" }, // announces a refund that was not made
      { action: "close_ticket[now]" },
    ];
    for (const body of invalid) {
      const reply = await call(url, "/step", { id, ...body });
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(reply.text).toContain('"reward":0.0');
      expect(reply.json.done).toBe(false);
      expect(reply.json.observation).toMatch(/^Nothing happens\. /);
      expect(reply.json.available_actions).toEqual(first.json.available_actions);
    }
    expect((await call(url, `/detail?id=${id}`)).json.steps).toBe(invalid.length);
  });

  it("answers a step after the end with 200 and an error, and unknown ids with 404", async () => {
    const url = plain.url;
    const { id } = await episodeOn(url, 11);
    const closed = await call(url, "/step", { id, action: "close_ticket" });
    expect(closed.json.done).toBe(true);
    expect(closed.text).toMatch(/"reward":(0\.0|0\.25|1\.0)/);
    expect(closed.json.available_actions).toEqual([]);
    const after = await call(url, "/step", { id, action: "close_ticket" });
    expect(after.status).toBe(200);
    expect(after.json.error).toMatch(/finished/);
    // A reset plays again on the same id.
    expect((await call(url, "/reset", { id, data_idx: 11 })).json.done).toBe(false);

    for (const [route, body] of [
      ["/step", { id: 999_999, action: "close_ticket" }],
      ["/reset", { id: 999_999, data_idx: 0 }],
      ["/close", { id: 999_999 }],
      ["/detail?id=999999", undefined],
    ] as const) {
      const reply = await call(url, route, body);
      expect(reply.status, route).toBe(404);
      expect(reply.json.error).toMatch(/not valid/);
    }
  });

  it("gives the same replies for the same task and actions, on two servers", async () => {
    const transcript = async (url: string, task: number) => {
      const { id, first } = await episodeOn(url, task);
      const texts = [first.text];
      let last = first.json;
      for (let k = 0; k < 8 && !last.done; k++) {
        const options: string[] = last.available_actions;
        const action = k === 2 ? "lookup_order[1]" : (options[(task + 5 * k) % options.length] as string);
        const reply = await call(url, "/step", { id, action });
        texts.push(reply.text);
        last = reply.json;
      }
      return texts;
    };
    for (const task of [0, 7, 512, 1042]) {
      const [a, b] = await Promise.all([transcript(plain.url, task), transcript(twin.url, task)]);
      expect(a.length).toBeGreaterThan(2);
      expect(a).toEqual(b);
    }
    const [x, y] = await Promise.all([episodeOn(plain.url, 1), episodeOn(plain.url, 2)]);
    expect(x.first.json.observation).not.toBe(y.first.json.observation);
  });

  it("lets the expert solve >= 95% of 100 test tasks over HTTP, the noisy and random policies less", async () => {
    const { stdout } = await run("python3", [
      path.join(DIR, "selftest.py"),
      "--url",
      plain.url,
      "--first",
      "1000",
      "--tasks",
      "100",
    ]);
    const report = JSON.parse(stdout);
    console.log(`helpdesk policies on test tasks 1000-1099: ${stdout.trim()}`);
    expect(report.expert.success).toBeGreaterThanOrEqual(0.95);
    expect(report["noisy-0.3"].success).toBeLessThan(report.expert.success);
    expect(report.random.success).toBeLessThan(report["noisy-0.3"].success);
    expect(report.distinct_instructions_of_2000).toBeGreaterThan(1900);
  });

  it("refuses requests without the token, and caps open environments at --max-envs", async () => {
    const guarded = await startServer("--token", "s3cret", "--max-envs", "2");
    servers.push(guarded);
    const auth = { authorization: "Bearer s3cret" };
    expect((await call(guarded.url, "/health")).status).toBe(401);
    const wrong = await call(guarded.url, "/create", {}, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toMatch(/token/);
    expect((await call(guarded.url, "/health", undefined, auth)).json).toEqual({ status: "healthy" });

    const a = await call(guarded.url, "/create", {}, auth);
    expect((await call(guarded.url, "/create", {}, auth)).status).toBe(200);
    const third = await call(guarded.url, "/create", {}, auth);
    expect(third.status).toBe(503);
    expect(third.json.error).toMatch(/close one/);
    await call(guarded.url, "/close", { id: a.json.id }, auth);
    expect((await call(guarded.url, "/create", {}, auth)).status).toBe(200);
  });

  it("serves 32 requests in flight at once with --latency-ms 50", async () => {
    const slow = await startServer("--latency-ms", "50");
    servers.push(slow);
    const IN_FLIGHT = 32;
    const ids: number[] = (
      await Promise.all(Array.from({ length: IN_FLIGHT }, () => call(slow.url, "/create", {})))
    ).map((r) => r.json.id);
    await Promise.all(ids.map((id, i) => call(slow.url, "/reset", { id, data_idx: i })));
    const rounds: number[] = [];
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const replies = await Promise.all(
        ids.map((id) => call(slow.url, "/step", { id, action: "check_policy[refund]" })),
      );
      rounds.push(performance.now() - started);
      expect(
        replies.every((r) => r.status === 200 && r.json.observation.startsWith("Policy on refund")),
      ).toBe(true);
    }
    const best = Math.min(...rounds);
    console.log(
      `helpdesk server, ${IN_FLIGHT} in flight at 50 ms latency: rounds ${rounds.map((r) => r.toFixed(0)).join(", ")} ms, ${((IN_FLIGHT * 1000) / best).toFixed(0)} requests/s at best`,
    );
    // One at a time would take 32 x 50 ms = 1.6 s a round.
    expect(Math.max(...rounds)).toBeLessThan(800);
  });

  it("writes logs in DreamGym's import format that the app's importer takes into SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "helpdesk-logs-"));
    const file = path.join(dir, "helpdesk.jsonl");
    const t = await createTestDb();
    try {
      await run("python3", [path.join(DIR, "logs.py"), "--episodes", "300", "--out", file]);
      const summary = await importTrajectoriesFile(t.db, file, "helpdesk.jsonl");
      expect(summary).toMatchObject({ trajectories: 300, imported: 300, duplicates: 0 });
      expect(await t.db.step.count()).toBe(summary.steps);
      const trajectories = await t.db.trajectory.findMany({
        where: { domain: "helpdesk" },
        select: { policy: true, success: true, task: { select: { id: true, split: true } } },
      });
      expect(trajectories).toHaveLength(300);
      expect(new Set(trajectories.map((x) => x.policy))).toEqual(new Set(["expert", "noisy-0.3", "random"]));
      expect(trajectories.filter((x) => x.policy === "expert").every((x) => x.success)).toBe(true);
      const test = trajectories.filter((x) => x.task.split === "test");
      expect(test.length).toBe(60);
      // Ids as a remote domain named helpdesk gives its tasks (split, index), so logs and server share tasks.
      expect(test.every((x) => /^helpdesk:test:\d+$/.test(x.task.id))).toBe(true);
      const index = (id: string) => Number(id.split(":")[2]);
      expect(test.every((x) => index(x.task.id) < 100)).toBe(true);
      const train = trajectories.filter((x) => x.task.split === "train");
      expect(train.every((x) => /^helpdesk:train:\d+$/.test(x.task.id) && index(x.task.id) < 1000)).toBe(
        true,
      );
      expect(await t.db.step.count({ where: { valid: false } })).toBeGreaterThan(0);
      expect((await importTrajectoriesFile(t.db, file, "again")).imported).toBe(0);
    } finally {
      await t.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops cleanly on SIGTERM", async () => {
    const server = await startServer();
    await call(server.url, "/create", {});
    const { code, stdout } = await server.stop();
    expect(code).toBe(0);
    expect(stdout).toMatch(/stopped\n$/);
  });
});
