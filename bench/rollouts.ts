/**
 * Rollouts at the speed of the endpoint, and of the machine.
 *
 * endpoint: DreamGym iterations (shop) with the openai experience model against a local OpenAI-protocol server
 * that answers every request after a fixed latency, at several in-flight limits. Prints synthetic transitions/s,
 * the requests the server saw in flight at once, what the client achieved, and the ratio to limit / latency (the
 * most an endpoint with that latency can give).
 *
 * embedded: the embedded DreamGym loop (policy, experience model, retrieval, the update) from a fresh database
 * with offline data: alone, as the CLI runs it, and as the worker's train job runs it (storing every rollout in
 * SQLite beside the real environment's answer, a checkpoint per iteration and the rollouts' LanceDB rows, on the
 * job's writer thread one iteration behind the loop), each with every episode on the main thread and with a
 * rollout thread playing a share of them; the job also with the embedded model's predictions on a thread. Each
 * embedded row runs in a fresh process.
 *
 *   npm run bench -- rollouts [--latency-ms 200] [--limits 1,8,32,128] [--only endpoint|embedded] [--repeat 3]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { shop } from "@/core/envs/shop";
import { OpenAIExperienceModel } from "@/core/experience/openaiModel";
import { DEFAULT_EXPERIENCE_SETTINGS } from "@/core/experience/types";
import { createLlmClient } from "@/core/llm";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import { parseRunConfig } from "@/core/train/config";
import { runTraining } from "@/core/train/run";

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** The fake endpoint in a child process; resolves with its URL once it listens. */
async function startEndpoint(latencyMs: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join("bench", "fakeEndpoint.ts"), String(latencyMs)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    child.on("exit", (code) => reject(new Error(`the fake endpoint exited with code ${code}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

async function endpointBench(latencyMs: number, limits: number[]) {
  const server = await startEndpoint(latencyMs);
  const endpointStats = async (what: "stats" | "reset") =>
    (await (await fetch(`${server.url}/${what}`, { method: "POST" })).json()) as { maxInFlight?: number };
  const rows = [];
  try {
    for (const limit of limits) {
      await endpointStats("reset");
      const llm = createLlmClient({
        baseURL: server.url,
        model: "bench-exp",
        timeoutMs: 60_000,
        maxRetries: 0,
        concurrency: limit,
      });
      // Enough episodes in an iteration to keep `limit` requests in flight through most of it.
      const episodes = Math.max(16, limit * 4);
      const groupSize = 8;
      const config = parseRunConfig({
        method: "dreamgym",
        domain: "shop",
        iterations: limit >= 32 ? 2 : 1,
        tasksPerBatch: Math.ceil(episodes / groupSize),
        groupSize,
        seedTasks: Math.max(100, Math.ceil(episodes / groupSize)),
        // The sim-to-real measurement at the end would play its one task step by step against the endpoint (3 s at
        // 200 ms a step): that is evaluation, not the rollouts this measures.
        evaluation: { interval: 1_000, episodes: 1, simulated: 0 },
        curriculum: { taskGeneration: false },
        experience: { k: 0 },
        rollouts: { concurrency: limit },
      });
      const started = performance.now();
      const result = await runTraining(config, {
        domain: shop,
        buffer: new MemoryReplayBuffer(new HashNgramEmbedder()),
        model: new OpenAIExperienceModel(llm.withLane("experience"), {
          ...DEFAULT_EXPERIENCE_SETTINGS,
          k: 0,
        }),
      });
      const seconds = (performance.now() - started) / 1000;
      const stats = llm.stats();
      const maxInFlight = (await endpointStats("stats")).maxInFlight ?? 0;
      const perSecond = result.syntheticTransitions / seconds;
      const ceiling = limit / (latencyMs / 1000);
      const row = {
        limit,
        transitions: result.syntheticTransitions,
        seconds: round(seconds),
        transitionsPerSecond: round(perSecond),
        ratioToLimitOverLatency: round(perSecond / ceiling, 2),
        maxRequestsInFlight: maxInFlight,
        achievedConcurrency: round(stats.achievedConcurrency, 1),
        promptTokensPerStep: Math.round(stats.promptTokens / Math.max(1, result.syntheticTransitions)),
      };
      rows.push(row);
      process.stderr.write(
        `endpoint limit ${limit}: ${row.transitionsPerSecond} transitions/s (${row.ratioToLimitOverLatency} of ${ceiling}/s), ${maxInFlight} in flight, ${row.achievedConcurrency} achieved\n`,
      );
    }
  } finally {
    server.stop();
  }
  return { latencyMs, rows };
}

/**
 * CPU time of the whole process (every thread, and LanceDB's native ones) since `from`: on a machine others load,
 * it varies less than the wall clock, which is what the transitions/s figures divide by.
 */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return round((used.user + used.system) / 1e6);
}

/** The embedded rows: the loop alone (nothing stored), then the worker's train job, each with its threads. */
const EMBEDDED_ROWS = [
  { stored: false, predictionThreads: 0, threads: 0 },
  { stored: false, predictionThreads: 0, threads: 1 },
  // The job as the worker runs it by default (nothing beside the writer thread), with a prediction thread (the
  // CLI's default) and with a rollout thread.
  { stored: true, predictionThreads: 0, threads: 0 },
  { stored: true, predictionThreads: 1, threads: 0 },
  { stored: true, predictionThreads: 0, threads: 1 },
] as const;

/**
 * Each embedded row in a process of its own, as a worker that has just started would run it: in one process the
 * later rows found the earlier ones' memos (page views, alignments, embeddings) warm for the very same episodes,
 * which flattered them. Each row runs `repeat` times, interleaved with the other rows, and keeps its median run
 * (the figures of every run beside it): on this 2-core host the same run's speed varied by a fifth from minute to
 * minute, and one run recorded the minute, not the code.
 */
async function embeddedBench(repeat: number) {
  const runs: Record<string, unknown>[][] = EMBEDDED_ROWS.map(() => []);
  for (let r = 0; r < repeat; r++) {
    for (let i = 0; i < EMBEDDED_ROWS.length; i++) {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", path.join("bench", "main.ts"), "rollouts", "--embedded-row", String(i)],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      if (code !== 0) throw new Error(`embedded row ${i} exited with code ${code}`);
      runs[i]!.push(JSON.parse(out.trim().split("\n").at(-1)!));
    }
  }
  const rows = runs.map((row, i) => {
    const speeds = row.map((run) => run.transitionsPerSecond as number);
    const median = [...row].sort(
      (a, b) => (a.transitionsPerSecond as number) - (b.transitionsPerSecond as number),
    )[Math.floor((row.length - 1) / 2)]!;
    process.stderr.write(
      `embedded row ${JSON.stringify(EMBEDDED_ROWS[i])}: median ${median.transitionsPerSecond} of ${speeds.join(" / ")} transitions/s\n`,
    );
    return { ...median, runs: speeds };
  });
  return { cores: os.availableParallelism(), repeat, rows };
}

/** One embedded row, on a fresh database seeded with offline data: what a user's run costs per step. */
async function embeddedRow({ stored, predictionThreads, threads }: (typeof EMBEDDED_ROWS)[number]) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-rollouts-"));
  process.env.DREAMGYM_DATA_DIR = work;
  const { config: appConfig } = await import("@/env");
  const { migrateDeploy } = await import("@/server/migrate");
  const { getDb } = await import("@/server/db");
  const { collectOffline } = await import("@/server/collect/collectOffline");
  const { createRun } = await import("@/server/train/runStore");
  const { runOneJob } = await import("@/server/queue/worker");
  const { createHandlers } = await import("../worker/handlers");
  try {
    await migrateDeploy(appConfig().databaseUrl);
    const db = await getDb();
    for (const [policy, episodes, epsilon, offset] of [
      ["expert", 300, 0, 0],
      ["noisy", 200, 0.3, 300],
    ] as const) {
      await collectOffline(db, {
        domain: "shop",
        policy,
        episodes,
        split: "train",
        epsilon,
        seed: 1,
        offset,
      });
    }
    // As the worker's collect job does: the offline data is in the replay buffer before any run (the train job
    // indexes the rollouts it writes, not the data a database was seeded with).
    const { indexPending } = await import("@/server/replay/syncSteps");
    await indexPending(db);
    const { runDeps } = await import("@/server/train/runDeps");
    const config = parseRunConfig({
      method: "dreamgym",
      domain: "shop",
      iterations: 40,
      tasksPerBatch: 8,
      groupSize: 8,
      evaluation: { interval: 1_000, episodes: 10 },
    });
    appConfig().worker.threads = predictionThreads;
    appConfig().worker.rolloutThreads = threads;
    if (!stored) {
      // The loop alone, as the CLI runs it: nothing stored.
      const deps = await runDeps(db, config);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const result = await runTraining(config, deps).finally(() => deps.close());
      const seconds = (performance.now() - started) / 1000;
      const row = {
        stored,
        threads,
        syntheticTransitions: result.syntheticTransitions,
        seconds: round(seconds),
        cpuSeconds: cpuSeconds(cpu),
        transitionsPerSecond: Math.round(result.syntheticTransitions / seconds),
      };
      process.stderr.write(
        `embedded loop, nothing stored, ${threads} rollout thread(s): ${row.transitionsPerSecond} synthetic transitions/s (${row.syntheticTransitions} in ${row.seconds} s, ${row.cpuSeconds} s of CPU)\n`,
      );
      await db.$disconnect();
      return row;
    }
    const { runId } = await createRun(db, config);
    const started = performance.now();
    const cpu = process.cpuUsage();
    await runOneJob({
      db,
      workerId: "bench",
      handlers: createHandlers(),
      leaseMs: 600_000,
      heartbeatMs: 5_000,
    });
    const seconds = (performance.now() - started) / 1000;
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    const storedSteps = await db.step.count({ where: { trajectory: { runId } } });
    if (run.status !== "succeeded") throw new Error(`the bench run ended ${run.status}: ${run.error}`);
    const row = {
      stored,
      threads,
      predictionThreads,
      syntheticTransitions: run.syntheticTransitions,
      storedSteps,
      seconds: round(seconds),
      cpuSeconds: cpuSeconds(cpu),
      transitionsPerSecond: Math.round(run.syntheticTransitions / seconds),
    };
    process.stderr.write(
      `embedded loop, ${predictionThreads} prediction and ${threads} rollout thread(s): ${row.transitionsPerSecond} synthetic transitions/s (${row.syntheticTransitions} in ${row.seconds} s, ${row.cpuSeconds} s of CPU, ${storedSteps} steps stored)\n`,
    );
    await db.$disconnect();
    return row;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function rolloutsBench(args: string[]): Promise<void> {
  const embeddedRowIndex = option(args, "--embedded-row", "");
  if (embeddedRowIndex !== "") {
    const spec = EMBEDDED_ROWS[Number(embeddedRowIndex)];
    if (!spec)
      throw new Error(`--embedded-row: no row ${embeddedRowIndex} (0 to ${EMBEDDED_ROWS.length - 1})`);
    process.stdout.write(`${JSON.stringify(await embeddedRow(spec))}\n`);
    // The row's threads and connections end with the process.
    process.exit(0);
  }
  const latencyMs = Number(option(args, "--latency-ms", "200"));
  const limits = option(args, "--limits", "1,8,32,128").split(",").map(Number);
  const only = option(args, "--only", "");
  const endpoint = only === "embedded" ? undefined : await endpointBench(latencyMs, limits);
  const repeat = Number(option(args, "--repeat", "3"));
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error(`--repeat: a whole number of runs from 1, got ${repeat}`);
  const embedded = only === "endpoint" ? undefined : await embeddedBench(repeat);
  const out = path.join("bench", "results", "rollouts.json");
  const previous = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")) : {};
  const results = {
    // The remote-environment row (remoteRollouts.ts) is written by its own bench.
    ...previous,
    endpoint: endpoint ?? previous.endpoint,
    embedded: embedded ?? previous.embedded,
  };
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ bench: "rollouts", ...results })}\n`);
}
