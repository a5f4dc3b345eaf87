import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { loadConfig } from "@/env";
import { auditStores } from "@/server/audit/audit";
import { enqueue } from "@/server/queue/queue";
import { sleep } from "@/server/queue/worker";
import { createEmbedder } from "@/server/replay/createEmbedder";
import { openReplayBuffer } from "@/server/replay/openReplayBuffer";
import { WorkerProcess } from "../scripts/chaos/workers";
import { createTestDb, describeEachDatabase } from "./helpers/testDb";

/** The shell's environment without any DreamGym setting: a machine before it is configured. */
function machineEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (/^(DREAMGYM_|DATABASE_URL$|LANCEDB_|WORKER_|OPENAI_)/.test(name)) delete env[name];
  return env;
}

/** What one worker's log says it claimed and finished, by job id. */
function jobsInLog(file: string): { claimed: string[]; finished: string[] } {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const ids = (verb: string) =>
    [...text.matchAll(new RegExp(`\\] ${verb} \\w+ (\\S+)`, "g"))].map((m) => m[1] as string);
  return { claimed: ids("claimed"), finished: ids("finished") };
}

/**
 * Issue 19, "workers anywhere": two worker processes that share only DATABASE_URL and LANCEDB_DIR, as two
 * machines would (each with a data folder and a config of its own), take jobs from one queue and index into one
 * replay buffer. PostgreSQL is the database two machines share; on SQLite the same two settings serve two
 * processes of one machine.
 */
describeEachDatabase("workers anywhere", (dialect) => {
  it("two workers sharing only the database and the LanceDB location each take jobs, and index into one place", async () => {
    const t = await createTestDb(dialect);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-anywhere-"));
    const shared = { DATABASE_URL: t.url, LANCEDB_DIR: path.join(root, "shared-lancedb") };
    const machines = ["A", "B"].map((name) => {
      const dataDir = path.join(root, `machine-${name}`);
      fs.mkdirSync(dataDir);
      const configFile = path.join(dataDir, "dreamgym.config.json");
      fs.writeFileSync(configFile, JSON.stringify({ worker: { loops: 1, pollMs: 100, leaseMs: 10_000 } }));
      const env = { ...machineEnv(), ...shared, DREAMGYM_DATA_DIR: dataDir, DREAMGYM_CONFIG: configFile };
      const logFile = path.join(root, `worker-${name}.log`);
      return { name, dataDir, logFile, worker: new WorkerProcess(name, env, logFile) };
    });
    try {
      for (const m of machines) m.worker.start();
      // Both up and polling before anything is queued, so that neither finds the whole queue alone.
      const ready = Date.now() + 30_000;
      while (!machines.every((m) => fs.readFileSync(m.logFile, "utf8").includes("loop(s), handling"))) {
        if (Date.now() > ready)
          throw new Error(
            `workers did not start:\n${machines.map((m) => fs.readFileSync(m.logFile, "utf8")).join("\n")}`,
          );
        await sleep(100);
      }

      const jobs = [];
      for (let i = 0; i < 6; i++)
        jobs.push(
          await enqueue(t.db, "collect", {
            domain: i % 2 === 0 ? "household" : "shop",
            policy: "noisy",
            episodes: 6,
            split: "train",
            epsilon: 0.3,
            seed: i + 1,
            offset: i * 6,
          }),
        );
      jobs.push(await enqueue(t.db, "index", { rebuild: false }));

      const deadline = Date.now() + 45_000;
      for (;;) {
        const open = await t.db.job.count({ where: { status: { in: ["queued", "running"] } } });
        if (open === 0) break;
        if (Date.now() > deadline) throw new Error(`jobs still open after 45 s: ${open}`);
        await sleep(200);
      }
      await Promise.all(machines.map((m) => m.worker.stop()));

      // Every job succeeded, at its first attempt, with no crash.
      const rows = await t.db.job.findMany({
        select: { id: true, status: true, attempts: true, crashes: true },
      });
      expect(rows).toHaveLength(jobs.length);
      for (const row of rows) expect(row).toMatchObject({ status: "succeeded", attempts: 1, crashes: 0 });

      // Each job was claimed and finished once, by one of the two, and both took some.
      const logs = machines.map((m) => jobsInLog(m.logFile));
      const claimed = logs.flatMap((l) => l.claimed).sort();
      const finished = logs.flatMap((l) => l.finished).sort();
      const ids = jobs.map((j) => j.id).sort();
      expect(claimed).toEqual(ids);
      expect(finished).toEqual(ids);
      for (const [i, log] of logs.entries())
        expect(log.finished.length, `worker ${machines[i]?.name} took no job`).toBeGreaterThan(0);

      // The shared folder holds exactly the database's steps, each once; no machine has a replay buffer of its own.
      const settings = loadConfig({ ...shared, DREAMGYM_DATA_DIR: root });
      const store = await openReplayBuffer({
        lancedbDir: shared.LANCEDB_DIR,
        embedder: await createEmbedder(settings),
        db: t.db,
      });
      try {
        const audit = await auditStores(t.db, store);
        expect(audit.problems).toEqual([]);
        expect(audit.counts.steps).toBeGreaterThan(0);
        expect(audit.counts.pendingSteps).toBe(0);
        expect(audit.counts.lanceRows).toBe(audit.counts.steps);
        expect(audit.counts.lanceIds).toBe(audit.counts.steps);
      } finally {
        store.close();
      }
      for (const m of machines) expect(fs.existsSync(path.join(m.dataDir, "lancedb")), m.dataDir).toBe(false);
    } finally {
      await Promise.all(machines.map((m) => m.worker.kill()));
      await t.cleanup();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 90_000);
});
