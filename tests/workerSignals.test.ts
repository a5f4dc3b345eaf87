import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { sleep } from "@/server/queue/worker";
import { createRun } from "@/server/train/runStore";
import { REPEAT_WINDOW_MS, StopSignals } from "../worker/stopSignals";
import { createTestDb, type TestDb } from "./helpers/testDb";

/**
 * Stopping `npm run worker` (worker/stopSignals.ts, worker/supervisor.ts): a terminal's Ctrl-C or a service
 * manager's SIGTERM goes to the whole process group, and every launcher on the way passes it on again; the worker,
 * busy in a long train job, must hand the job back to the queue and exit 0, not die holding it (a crash).
 */

const ROOT = path.resolve(import.meta.dirname, "..");

/** A household run far longer than the test: the worker is in the middle of it when the signal comes. */
const LONG_RUN = parseRunConfig({
  name: "signals: a long household run",
  method: "real",
  domain: "household",
  algorithm: "grpo",
  iterations: 1_000,
  tasksPerBatch: 4,
  groupSize: 4,
  realTransitions: 10_000_000,
  evaluation: { interval: 1_000, episodes: 5 },
});

interface Started {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  logFile: string;
}

/** The worker as `npm run worker` starts it (`npm run worker`, or tsx itself), in a process group of its own. */
function startWorker(t: TestDb, launcher: "npm" | "tsx"): Started {
  const configFile = path.join(t.dir, "worker.config.json");
  fs.writeFileSync(
    configFile,
    JSON.stringify({ worker: { pollMs: 100, heartbeatMs: 500, leaseMs: 30_000 } }),
  );
  const logFile = path.join(t.dir, `worker-${launcher}.log`);
  const log = fs.openSync(logFile, "a");
  const [command, args] =
    launcher === "npm"
      ? ["npm", ["run", "--silent", "worker"]]
      : [path.join(ROOT, "node_modules", ".bin", "tsx"), ["worker/main.ts"]];
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      DREAMGYM_DATA_DIR: t.dir,
      LANCEDB_DIR: path.join(t.dir, "lancedb"),
      DREAMGYM_CONFIG: configFile,
      npm_config_update_notifier: "false",
    },
  });
  fs.closeSync(log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, logFile };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Until the job is running and its run has finished an iteration: the worker's main thread is computing. */
async function untilWorking(t: TestDb, jobId: string, runId: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    if (job.status === "running" && run.iteration >= 1) return;
    if (Date.now() > deadline)
      throw new Error(
        `the worker never got into its job (${job.status}):\n${fs.readFileSync(logFile, "utf8")}`,
      );
    await sleep(100);
  }
}

let started: Started | undefined;
let testDb: TestDb | undefined;

afterEach(async () => {
  const pid = started?.child.pid;
  if (pid !== undefined && groupAlive(pid)) process.kill(-pid, "SIGKILL");
  started = undefined;
  await testDb?.cleanup();
  testDb = undefined;
});

describe("stopping the worker", () => {
  it.each([
    ["SIGTERM", "npm"],
    ["SIGINT", "tsx"],
    ["SIGTERM", "tsx"],
  ] as const)(
    "%s to the process group of `%s … worker` hands a busy job back to the queue and exits cleanly",
    async (signal, launcher) => {
      testDb = await createTestDb();
      const t = testDb;
      const { runId, jobId } = await createRun(t.db, LONG_RUN);
      started = startWorker(t, launcher);
      const pid = started.child.pid!;
      await untilWorking(t, jobId, runId, started.logFile);
      await sleep(500);

      process.kill(-pid, signal);
      const timeout = sleep(60_000).then(() => "timeout" as const);
      const outcome = await Promise.race([started.exited, timeout]);
      // Every process of the group is gone (npm exits at once, the worker after handing its job back).
      for (let i = 0; i < 300 && groupAlive(pid); i++) await sleep(100);
      const log = fs.readFileSync(started.logFile, "utf8");
      expect(outcome, log).not.toBe("timeout");
      expect(groupAlive(pid), log).toBe(false);
      expect(log).toContain("handed back to the queue");
      expect(log).toContain("worker: stopped");
      expect(log).not.toContain("forcing the exit");
      // npm reports the signal that reached it as its own exit; tsx exits with the worker's code.
      if (launcher === "tsx") expect(outcome, log).toEqual({ code: 0, signal: null });

      const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(job, log).toMatchObject({
        status: "queued",
        lockedBy: null,
        leaseUntil: null,
        attempts: 0,
        crashes: 0,
        lapses: 0,
      });
    },
    120_000,
  );
});

describe("what a stop signal means", () => {
  it("is one stop for signals in quick succession, and a forced exit for a later one", () => {
    let now = 1_000;
    const signals = new StopSignals(REPEAT_WINDOW_MS, () => now);
    expect(signals.receive()).toBe("stop");
    now += 5;
    expect(signals.receive()).toBe("repeat");
    now += 40;
    expect(signals.receive()).toBe("repeat");
    now = 1_000 + REPEAT_WINDOW_MS - 1;
    expect(signals.receive()).toBe("repeat");
    now = 1_000 + REPEAT_WINDOW_MS;
    expect(signals.receive()).toBe("force");
    now += 10_000;
    expect(signals.receive()).toBe("force");
  });
});
