/**
 * The environment server under a trainer's load: 64 OpenEnv WebSocket sessions at once (a client process of its
 * own), synthetic shop with the embedded backends, each session playing whole episodes (up to 15 steps) until it has taken 15 steps, every episode
 * recorded under an external run in a fresh SQLite database. Prints episodes/s, the step round trip p50/p95, the
 * server's own time per step beyond the experience model's (the synthetic environment's step: retrieval and
 * prediction), and the episodes lost or stored twice (must be 0). First one session alone, for the overhead on an
 * idle machine. Writes bench/results/env-server.json.
 *
 *   npm run bench -- env-server [--sessions 64] [--steps 15] [--offline 400]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1] ?? fallback) : fallback;
}

const round = (x: number, digits = 2) => Number(x.toFixed(digits));

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface ClientResult {
  seconds: number;
  rtts: number[];
  played: { episodeId: string; steps: number }[];
}

function runClient(url: string, runId: string, sessions: number, steps: number): Promise<ClientResult> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join("bench", "envServerClient.ts"),
      url,
      runId,
      String(sessions),
      String(steps),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim()) as ClientResult)
        : reject(new Error(`client exited ${code}`)),
    ),
  );
}

export async function envServerBench(args: string[]) {
  const sessions = option(args, "--sessions", 64);
  const stepsPerSession = option(args, "--steps", 15);
  const offline = option(args, "--offline", 400);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-env-bench-"));
  const url = `file:${path.join(dir, "bench.db")}`;
  process.env.DREAMGYM_DATA_DIR = dir;
  process.env.LANCEDB_DIR = path.join(dir, "lancedb");
  process.env.DATABASE_URL = url;
  const { migrateDeploy } = await import("@/server/migrate");
  const { createDb } = await import("@/server/db");
  const { collectOffline } = await import("@/server/collect/collectOffline");
  const { startEnvServer } = await import("@/server/envServer/server");
  await migrateDeploy(url);
  const db = await createDb(url);
  process.stderr.write(`collecting ${offline} offline shop episodes…\n`);
  await collectOffline(db, {
    domain: "shop",
    policy: "noisy",
    episodes: offline,
    split: "train",
    epsilon: 0.3,
    seed: 1,
    offset: 0,
  });
  const server = await startEnvServer(db, {
    port: 0,
    maxSessions: Math.max(128, sessions),
    idleMs: 600_000,
    databaseUrl: url,
  });
  await server.service.warm(["shop"]);
  const created = (await (
    await fetch(`${server.url}/runs`, {
      method: "POST",
      body: JSON.stringify({ name: "env-server bench", config: { domain: "shop", method: "dreamgym" } }),
    })
  ).json()) as { run_id: string };
  const runId = created.run_id;

  let timings: { total: number; env: number }[] = [];
  server.service.stepTimer = (total, env) => timings.push({ total, env });
  const phase = async (label: string, n: number, budget: number) => {
    timings = [];
    process.stderr.write(`${label}: ${n} session(s) × ${budget} steps…\n`);
    const client = await runClient(server.url, runId, n, budget);
    const steps = client.rtts.length;
    const envMs = timings.map((t) => t.env);
    const overhead = timings.map((t) => t.total - t.env);
    return {
      client,
      figures: {
        sessions: n,
        episodes: client.played.length,
        steps,
        seconds: round(client.seconds),
        episodesPerSecond: round(client.played.length / client.seconds),
        stepsPerSecond: round(steps / client.seconds),
        stepRoundTripMs: { p50: round(quantile(client.rtts, 0.5)), p95: round(quantile(client.rtts, 0.95)) },
        experienceModelMs: { p50: round(quantile(envMs, 0.5)), p95: round(quantile(envMs, 0.95)) },
        serverOverheadMs: { p50: round(quantile(overhead, 0.5), 3), p95: round(quantile(overhead, 0.95), 3) },
        // On one session nothing queues: the round trip minus the model is what the server and the wire add.
        roundTripBeyondModelMs: round(quantile(client.rtts, 0.5) - quantile(envMs, 0.5), 3),
      },
    };
  };
  const alone = await phase("one session", 1, 60);
  const load = await phase("load", sessions, stepsPerSession);
  await server.service.settle();

  // Lost: an episode the client played that is not stored whole and done. Stored twice: steps beyond its length,
  // or trajectories of the run no client played.
  const played = [...alone.client.played, ...load.client.played];
  const rows = await db.trajectory.findMany({
    where: { runId },
    select: { episodeId: true, status: true, length: true, _count: { select: { steps: true } } },
  });
  const byEpisode = new Map(rows.map((r) => [r.episodeId, r]));
  const lost = played.filter((p) => {
    const row = byEpisode.get(p.episodeId);
    return row?.status !== "done" || row.length !== p.steps || row._count.steps < p.steps;
  }).length;
  const ids = new Set(played.map((p) => p.episodeId));
  const duplicated =
    rows.filter((r) => !ids.has(r.episodeId as string)).length +
    rows.filter((r) => r._count.steps > r.length).length;

  await server.close();
  await db.$disconnect();
  fs.rmSync(dir, { recursive: true, force: true });
  const result = {
    bench: "env-server",
    // Other work on the machine slows every figure but the counts: say how loaded it was.
    machine: {
      cores: os.availableParallelism(),
      node: process.version,
      loadAverage1m: round(os.loadavg()[0] ?? 0),
    },
    domain: "shop",
    mode: "synthetic",
    backends: "embedded",
    offlineEpisodes: offline,
    alone: alone.figures,
    load: load.figures,
    storedEpisodes: rows.length,
    lost,
    duplicated,
    goal: "server overhead per step ≤ 2 ms p50 beyond the experience model's own time",
  };
  fs.mkdirSync(path.join("bench", "results"), { recursive: true });
  fs.writeFileSync(path.join("bench", "results", "env-server.json"), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (lost > 0 || duplicated > 0) process.exitCode = 1;
}
