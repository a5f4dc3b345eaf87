import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { redactDatabaseUrl } from "@/env/database";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { type JobHandlers, runWorkerLoop, sleep } from "@/server/queue/worker";

/**
 * `npm run bench -- queue-pg`: the queue's throughput on PostgreSQL. Enqueues 10,000 small jobs into a fresh
 * database, then 8 worker loops (the worker's own loop: claim with FOR UPDATE SKIP LOCKED, heartbeats, complete)
 * run them with a handler that does nothing but count; prints jobs/s and how many jobs ran more than once (must be
 * 0). The server is --url, else DREAMGYM_TEST_POSTGRES_URL (its user must be allowed to create databases; the
 * bench's database is dropped after). --sqlite runs the same on a fresh SQLite file, for comparison.
 *   --jobs 10000 --loops 8 --clients 1 (Prisma clients the loops share round-robin; each has its own pool)
 */
export async function queuePgBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: "string" },
      jobs: { type: "string", default: "10000" },
      loops: { type: "string", default: "8" },
      clients: { type: "string", default: "1" },
      sqlite: { type: "boolean", default: false },
    },
  });
  const jobs = Number(values.jobs);
  const loops = Number(values.loops);
  const log = (line: string) => process.stderr.write(`${line}\n`);

  const database = values.sqlite ? sqliteDatabase() : await postgresDatabase(values.url);
  try {
    await migrateDeploy(database.url);
    const clients: Db[] = await Promise.all(
      Array.from({ length: Number(values.clients) }, () => createDb(database.url)),
    );
    const db = clients[0] as Db;
    log(`enqueueing ${jobs} jobs on ${database.label}`);
    const now = new Date();
    for (let start = 0; start < jobs; start += 1_000) {
      await db.job.createMany({
        data: Array.from({ length: Math.min(1_000, jobs - start) }, (_, i) => ({
          type: "collect",
          payload: { domain: "shop", policy: "expert", episodes: 1, seed: start + i },
          runAt: now,
        })),
      });
    }

    const runs = new Map<string, number>();
    const handlers: JobHandlers = {
      async collect(_payload, ctx) {
        runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
        return null;
      },
    };
    const stop = new AbortController();
    const started = performance.now();
    const workers = Array.from({ length: loops }, (_, i) =>
      runWorkerLoop({
        db: clients[i % clients.length] as Db,
        workerId: `bench-${i}`,
        handlers,
        leaseMs: 30_000,
        heartbeatMs: 5_000,
        pollMs: 200,
        signal: stop.signal,
      }),
    );
    let done = 0;
    while (done < jobs) {
      await sleep(250);
      done = await db.job.count({ where: { status: "succeeded" } });
    }
    const seconds = (performance.now() - started) / 1000;
    stop.abort();
    await Promise.all(workers);

    const twice = [...runs.values()].filter((n) => n > 1).length;
    const notOnce = await db.job.count({
      where: { OR: [{ status: { not: "succeeded" } }, { attempts: { not: 1 } }] },
    });
    const figures = {
      bench: values.sqlite ? "queue-sqlite" : "queue-pg",
      database: values.sqlite ? "sqlite" : "postgresql",
      jobs,
      loops,
      clients: clients.length,
      seconds: Math.round(seconds * 100) / 100,
      jobsPerSecond: Math.round(jobs / seconds),
      ranTwice: twice,
      ran: runs.size,
      rowsNotSucceededOnce: notOnce,
      cores: os.cpus().length,
    };
    log(
      `${jobs} jobs with ${loops} loops: ${figures.jobsPerSecond} jobs/s (${figures.seconds} s); ran twice: ${twice}`,
    );
    await Promise.all(clients.map((c) => c.$disconnect()));
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    if (twice > 0 || runs.size !== jobs || notOnce > 0) process.exitCode = 1;
  } finally {
    await database.drop();
  }
}

interface BenchDatabase {
  url: string;
  label: string;
  drop(): Promise<void>;
}

function sqliteDatabase(): BenchDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-bench-queue-"));
  return {
    url: `file:${path.join(dir, "queue.db")}`,
    label: "a fresh SQLite file",
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresDatabase(url: string | undefined): Promise<BenchDatabase> {
  const server = url ?? process.env.DREAMGYM_TEST_POSTGRES_URL;
  if (!server)
    throw new Error("queue-pg needs a PostgreSQL server: --url postgresql://… or DREAMGYM_TEST_POSTGRES_URL");
  const name = `dreamgym_bench_queue_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    label: `database ${name} on ${redactDatabaseUrl(server)}`,
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
