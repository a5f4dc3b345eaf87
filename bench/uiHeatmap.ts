/**
 * `npm run bench -- ui-heatmap [--tasks 500] [--iterations 100] [--loads 7]`: how long the curriculum page takes
 * from navigation to a drawn heatmap of a large run, in headless Chromium against a real server (`scripts/start.ts`,
 * production build) on its own fresh database. "Drawn" is the page's own `heatmap-drawn` performance mark, set
 * once the canvas has its cells.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "@/env";
import { bulkInsert, sqlDate } from "@/server/bulkInsert";
import { runHeatmap } from "@/server/curriculum/heatmap";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { benchConfig, launchChromium, quantile, type RunningApp, startApp } from "./appServer";

const root = path.resolve(import.meta.dirname, "..");
const AIM_MS = 1_000;

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer`);
  return value;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A finished run of `tasks` tasks (a quarter of them curriculum variations) × `iterations` of task statistics. */
async function writeRun(db: Db, tasks: number, iterations: number, group: number): Promise<string> {
  const run = await db.run.create({
    data: {
      name: `bench: ${tasks} tasks × ${iterations} iterations`,
      method: "dreamgym",
      domain: "shop",
      algorithm: "grpo",
      config: { method: "dreamgym", domain: "shop", iterations, tasksPerBatch: tasks, groupSize: group },
      status: "succeeded",
      progress: 1,
      iteration: iterations,
      finishedAt: new Date(),
    },
  });
  const seeds = Math.ceil(tasks * 0.75);
  const now = sqlDate(new Date());
  const taskRows = Array.from({ length: tasks }, (_, i) => {
    const generated = i >= seeds;
    return [
      `bench-task-${i}`,
      "shop",
      `${generated ? "Variation: " : ""}Find a ${["red", "blue", "large", "cheap"][i % 4]} item #${i} under $${20 + (i % 50)}`,
      "train",
      generated ? "generated" : "seed",
      generated ? `bench-task-${i - seeds}` : null,
      generated ? 1 : 0,
      generated ? run.id : null,
      now,
    ];
  });
  const next = random(7);
  const stats: (string | number)[][] = [];
  for (let t = 0; t < tasks; t++) {
    const skill = next();
    for (let it = 1; it <= iterations; it++) {
      // Success drifts up with training; variance p(1-p) peaks where the task is half learned.
      const p = Math.min(1, Math.max(0, skill + (it / iterations) * 0.6 - 0.3 + (next() - 0.5) * 0.2));
      const successes = Math.round(p * group);
      const mean = successes / group;
      stats.push([
        `bench-stat-${t}-${it}`,
        run.id,
        it,
        `bench-task-${t}`,
        group,
        mean,
        mean * (1 - mean),
        mean,
      ]);
    }
  }
  await db.$transaction(async (tx) => {
    await bulkInsert(
      tx,
      "Task",
      ["id", "domain", "instruction", "split", "origin", "parentId", "generation", "runId", "createdAt"],
      taskRows,
    );
    await bulkInsert(
      tx,
      "TaskStat",
      ["id", "runId", "iteration", "taskId", "count", "meanReward", "variance", "successRate"],
      stats,
    );
  });
  return run.id;
}

export async function uiHeatmapBench(args: string[]): Promise<void> {
  const tasks = option(args, "tasks", 500);
  const iterations = option(args, "iterations", 100);
  const loads = option(args, "loads", 7);
  const log = (line: string) => process.stderr.write(`[ui-heatmap] ${line}\n`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-bench-heatmap-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DREAMGYM_DATA_DIR: dataDir,
    DREAMGYM_CONFIG: benchConfig(dataDir),
  };
  delete env.DATABASE_URL;
  const settings = loadConfig(env);
  let app: RunningApp | undefined;
  try {
    await migrateDeploy(settings.databaseUrl);
    const db = await createDb(settings.databaseUrl);
    const writeStart = performance.now();
    const runId = await writeRun(db, tasks, iterations, 8);
    const writeMs = performance.now() - writeStart;
    log(
      `wrote ${tasks} tasks × ${iterations} iterations = ${tasks * iterations} task stats in ${writeMs.toFixed(0)} ms`,
    );
    const queryMs: number[] = [];
    let payloadBytes = 0;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const map = await runHeatmap(db, runId);
      queryMs.push(performance.now() - start);
      payloadBytes = JSON.stringify(map).length;
    }
    await db.$disconnect();
    log(
      `heatmap query p50 ${quantile(queryMs, 0.5).toFixed(0)} ms, payload ${(payloadBytes / 1024).toFixed(0)} KiB`,
    );

    log("starting the app (builds into .next-bench when the sources changed)…");
    app = await startApp(dataDir, 15 * 60_000);
    const { base } = app;
    const browser = await launchChromium();
    const drawn: number[] = [];
    const fetched: number[] = [];
    const documents: number[] = [];
    try {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        storageState: app.session.storageState,
      });
      for (let load = 0; load <= loads; load++) {
        const page = await context.newPage();
        await page.goto(`${base}/curriculum?run=${runId}`);
        await page.waitForSelector('canvas[data-drawn="true"]', { timeout: 60_000 });
        const timing = await page.evaluate(() => {
          const mark = performance.getEntriesByName("heatmap-drawn")[0];
          const request = performance
            .getEntriesByType("resource")
            .find((e) => e.name.includes("curriculum.heatmap")) as PerformanceResourceTiming | undefined;
          const nav = performance.getEntriesByType("navigation")[0] as
            | PerformanceNavigationTiming
            | undefined;
          return {
            drawn: mark?.startTime ?? Number.NaN,
            document: nav ? nav.responseEnd : Number.NaN,
            // The page renders the heatmap on the server; a client request happens only without that.
            fetch: request ? request.duration : Number.NaN,
          };
        });
        const rows = await page.getAttribute("canvas[data-drawn]", "data-rows");
        if (Number(rows) !== tasks) throw new Error(`the heatmap drew ${rows} rows, expected ${tasks}`);
        await page.close();
        // The first load warms the server's caches and the browser's; it is reported, not counted.
        if (load === 0) {
          log(`warm-up load: drawn at ${timing.drawn.toFixed(0)} ms`);
          continue;
        }
        drawn.push(timing.drawn);
        documents.push(timing.document);
        if (!Number.isNaN(timing.fetch)) fetched.push(timing.fetch);
        const request = Number.isNaN(timing.fetch)
          ? ""
          : `, client heatmap request ${timing.fetch.toFixed(0)} ms`;
        log(
          `load ${load}: drawn at ${timing.drawn.toFixed(0)} ms (document in at ${timing.document.toFixed(0)} ms${request})`,
        );
      }
    } finally {
      await browser.close();
    }

    const result = {
      bench: "ui-heatmap",
      tasks,
      iterations,
      cells: tasks * iterations,
      loads,
      loadAverage: Math.round((os.loadavg()[0] ?? 0) * 10) / 10,
      drawnP50Ms: Math.round(quantile(drawn, 0.5)),
      drawnMaxMs: Math.round(Math.max(...drawn)),
      documentP50Ms: Math.round(quantile(documents, 0.5)),
      clientHeatmapRequests: fetched.length,
      serverQueryP50Ms: Math.round(quantile(queryMs, 0.5)),
      payloadKiB: Math.round(payloadBytes / 1024),
      aimMs: AIM_MS,
      met: quantile(drawn, 0.5) < AIM_MS,
    };
    console.log(`navigation → heatmap drawn, ${tasks} tasks × ${iterations} iterations (${loads} loads):`);
    console.log(`  p50 ${result.drawnP50Ms} ms, max ${result.drawnMaxMs} ms (aim: under ${AIM_MS} ms)`);
    console.log(
      `  document (server-rendered, heatmap included) p50 ${result.documentP50Ms} ms; heatmap query ${result.serverQueryP50Ms} ms; client heatmap requests ${result.clientHeatmapRequests}`,
    );
    console.log(`  payload ${result.payloadKiB} KiB; machine load average ${os.loadavg()[0]?.toFixed(1)}`);
    fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "bench", "results", "ui-heatmap.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    console.log(JSON.stringify(result));
  } finally {
    if (app) await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
