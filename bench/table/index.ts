/**
 * `npm run bench:table [-- --quick] [--seeds 0,1] [--domains shop] [--jobs 2] [--out DIR]`: the paper's table on
 * the built-in environments. Collects its own offline data into a fresh data folder, runs every method × seed as
 * a `train` CLI process (two at a time on two cores), and writes table.md and table.json (with the commit and
 * every config). A run that fails is reported in its row; the others go on.
 *
 * For choosing settings without looking at the test tasks: `--validation` evaluates every row on validation tasks
 * (core/train/heldOut.ts) and writes table-validation.md, `--rows dreamgym-s2r/grpo,real/grpo` keeps those rows,
 * and `--set grpo.epochs=2` (repeatable) changes a setting of every row kept, as `train --set` does.
 * `--part NAME` names a selection of rows as a part of the table (table-NAME.md and .json), for a table too large
 * to run at once; `--reference FILE` compares its rows with another part's real-env rows where it has none (and
 * `npm run bench -- table-report` does so for a part already run: table/rereport.ts). `--data-only DIR` only
 * collects the table's offline data into DIR, for running one row alone (table/configs.ts). `--policies DIR` keeps
 * each run's final policy there (`<domain>-<row>-<seed>.json`, as `train --checkpoint` writes it), for the transfer
 * bench to play in the real and the synthetic environment (`npm run bench -- transfer --policy …`).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import cliProgress from "cli-progress";
import { isRealDomainName, REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { RunConfig } from "@/core/train/config";
import type { RunMethod } from "@/core/train/methods";
import { applyOverride } from "@/core/train/overrides";
import { markdown, type ReferenceRows, type RunOutcome, summarise } from "./report";
import { loadReference } from "./rereport";
import {
  type Domain,
  IMPORTED_SHOP,
  importedShopHeldOut,
  SCALES,
  type Scale,
  type TableRow,
  tableRows,
} from "./spec";

interface Options {
  mode: "full" | "quick";
  scale: Scale;
  domains: Domain[];
  jobs: number;
  out: string;
  /** Evaluate on validation tasks instead of test tasks. */
  validation: boolean;
  /** Row keys to run (all when empty). */
  rows: string[];
  /** `path=value` settings applied to every row's config. */
  overrides: string[];
  /** A named part of the table (`--part grpo` writes table-grpo.md): rows that fit the machine in one go. */
  part: string | undefined;
  /** `--reference FILE`: another part's results, whose real-env rows this part's rows are compared with. */
  reference: ReferenceRows | undefined;
  /** `--policies DIR`: where each run's final policy is kept. */
  policies: string | undefined;
}

function parseArgs(args: string[]): Options {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const mode = args.includes("--quick") ? "quick" : "full";
  const scale = { ...SCALES[mode] };
  const seeds = value("--seeds");
  if (seeds) scale.seeds = seeds.split(",").map((s) => Number.parseInt(s, 10));
  if (scale.seeds.some((s) => !Number.isInteger(s) || s < 0))
    throw new Error(`--seeds: not a list of seeds: ${seeds}`);
  const domains: Domain[] = [];
  for (const d of (value("--domains") ?? REAL_DOMAIN_NAMES.join(",")).split(",")) {
    if (!isRealDomainName(d))
      throw new Error(`--domains: unknown domain "${d}" (built in: ${REAL_DOMAIN_NAMES.join(", ")})`);
    domains.push(d);
  }
  const jobs = Number.parseInt(value("--jobs") ?? "2", 10);
  if (!(jobs >= 1)) throw new Error("--jobs: must be a positive integer");
  const out = path.resolve(value("--out") ?? path.join("bench", "results"));
  const rows = (value("--rows") ?? "").split(",").filter(Boolean);
  const known = new Set(domains.flatMap((d) => tableRows(d, scale, 0).map((r) => r.key)));
  const unknown = rows.filter((r) => !known.has(r));
  if (unknown.length > 0)
    throw new Error(`--rows: no row ${unknown.join(", ")} (rows: ${[...known].join(", ")})`);
  const overrides = args.flatMap((a, i) => (a === "--set" ? [args[i + 1] ?? ""] : []));
  const part = value("--part");
  const reference = value("--reference");
  const policies = value("--policies");
  if (part !== undefined && !/^[a-z0-9-]+$/.test(part))
    throw new Error(`--part: a name of lower-case letters, digits and dashes, not "${part}"`);
  return {
    mode,
    scale,
    domains,
    jobs,
    out,
    validation: args.includes("--validation"),
    rows,
    overrides,
    part,
    reference: reference === undefined ? undefined : loadReference(reference),
    policies: policies === undefined ? undefined : path.resolve(policies),
  };
}

/** The rows this invocation runs, with its overrides and held-out tasks applied to their configs. */
function selectedRows(domain: Domain, options: Options, seed: number): TableRow[] {
  return (
    tableRows(domain, options.scale, seed)
      .filter((row) => options.rows.length === 0 || options.rows.includes(row.key))
      .map((row) => {
        const config = structuredClone(row.config) as Record<string, unknown>;
        for (const assignment of options.overrides) applyOverride(config, assignment);
        if (options.validation) applyOverride(config, "evaluation.tasks=validation");
        return { ...row, config: config as TableRow["config"] };
      })
      // An imported domain is evaluated on its held-out logs only: it has no validation tasks.
      .filter((row) => !options.validation || isRealDomainName(String(row.config.domain)))
  );
}

export function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    // Not trimmed: a porcelain line starts with its two status columns, the first often a space.
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      encoding: "utf8",
    });
    const files = dirty
      .split("\n")
      .filter((line) => line.length > 3)
      .map((line) => line.slice(3));
    if (files.length === 0) return head;
    // Which files, so that a table run beside an edit of the README is not mistaken for one of changed code.
    return `${head} (with uncommitted changes to ${files.length > 5 ? `${files.length} files` : files.join(", ")})`;
  } catch {
    return "unknown";
  }
}

/** Offline data for every domain, in the bench's own database, through the app's own collection code. */
async function prepareData(dataDir: string, options: Options) {
  process.env.DREAMGYM_DATA_DIR = dataDir;
  const { config } = await import("@/env");
  const { migrateDeploy } = await import("@/server/migrate");
  const { getDb } = await import("@/server/db");
  const { collectOffline } = await import("@/server/collect/collectOffline");
  await migrateDeploy(config().databaseUrl);
  const db = await getDb();
  for (const domain of options.domains) {
    for (const collection of options.scale.offline(domain)) {
      const summary = await collectOffline(db, collection);
      process.stderr.write(
        `offline ${domain} ${summary.policy}: ${summary.episodes} episodes, ${summary.transitions} transitions\n`,
      );
    }
  }
  if (options.domains.includes("shop")) {
    // The shop's logs as a domain without an environment, through the app's own export and import.
    await collectOffline(db, importedShopHeldOut(options.scale));
    const { exportTrajectoriesFile } = await import("@/server/trajectories/exportTrajectories");
    const { importTrajectoriesFile } = await import("@/server/trajectories/importTrajectories");
    const file = path.join(dataDir, `${IMPORTED_SHOP}.jsonl`);
    await exportTrajectoriesFile(db, { domain: "shop", as: IMPORTED_SHOP }, file);
    const summary = await importTrajectoriesFile(db, file);
    process.stderr.write(
      `imported ${IMPORTED_SHOP}: ${summary.imported} trajectories, ${summary.steps} steps\n`,
    );
  }
  await db.$disconnect();
}

interface Job {
  domain: Domain;
  seed: number;
  row: TableRow;
}

function runOne(job: Job, dataDir: string, configDir: string, policies?: string): Promise<RunOutcome> {
  const name = `${job.domain}-${job.row.key.replace("/", "-")}-${job.seed}.json`;
  const file = path.join(configDir, name);
  const keep = policies === undefined ? [] : ["--checkpoint", path.join(policies, name)];
  fs.writeFileSync(file, JSON.stringify({ name: `table ${job.domain} ${job.row.key}`, ...job.row.config }));
  const base = { domain: job.domain, seed: job.seed, key: job.row.key };
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join("src", "cli", "main.ts"), "train", "--config", file, ...keep],
      {
        // Two runs at a time already keep both cores busy: no prediction threads beside them.
        env: { ...process.env, DREAMGYM_DATA_DIR: dataDir, DREAMGYM_THREADS: "0" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-4_000);
    });
    child.on("close", (code) => {
      const last = stdout.trim().split("\n").at(-1) ?? "";
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        const r = JSON.parse(last) as Record<string, number> & {
          finalProxy?: Record<string, number> & { trust?: { trustworthy: boolean; reasons: string[] } };
        };
        // An imported-domain row: its real success is the one ground-truth check; its proxies go beside it.
        const proxy = r.finalProxy;
        resolve({
          ...base,
          ...(proxy
            ? {
                finalSuccess: r.groundTruthSuccess,
                finalSimSuccess: proxy.syntheticSuccess,
                ...(r.groundTruthWebshopSuccess !== undefined
                  ? { finalWebshopSuccess: r.groundTruthWebshopSuccess }
                  : {}),
                proxy: {
                  syntheticSuccess: proxy.syntheticSuccess as number,
                  confidence: proxy.confidence ?? null,
                  actionAgreement: proxy.actionAgreement ?? null,
                  ...(proxy.trust ? { trust: proxy.trust } : {}),
                },
              }
            : {
                finalSuccess: r.finalSuccess,
                ...(r.finalSimSuccess !== undefined ? { finalSimSuccess: r.finalSimSuccess } : {}),
                ...(r.finalWebshopSuccess !== undefined
                  ? { finalWebshopSuccess: r.finalWebshopSuccess }
                  : {}),
              }),
          untrainedSuccess: r.untrainedSuccess,
          realTransitions: r.realTransitions,
          syntheticTransitions: r.syntheticTransitions,
          seconds: r.seconds,
        });
      } catch (error) {
        const reason = stderr.trim().split("\n").slice(-3).join(" | ");
        resolve({ ...base, error: `${(error as Error).message}: ${reason}` });
      }
    });
  });
}

/** Longest first, so the two lanes finish together (measured: a synthetic transition costs far more than a real one). */
const COST: Record<RunMethod, number> = {
  real: 0.3,
  dreamgym: 2,
  "dreamgym-s2r": 2.1,
  bc: 0.05,
  untrained: 0.01,
};
const cost = (job: Job) =>
  (COST[job.row.config.method as RunMethod] ?? 1) *
  (job.domain === "household" ? 2 : 1) *
  // Measured: the imported copy's candidates and longer episodes make its row about twice a DreamGym row.
  (job.row.config.domain === IMPORTED_SHOP ? 2 : 1);

export async function tableBench(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const dataOnly = args.indexOf("--data-only");
  if (dataOnly >= 0) {
    // The table's offline data alone, for running one row with `train --config configs/table/…` (table/configs.ts).
    const dir = path.resolve(args[dataOnly + 1] ?? path.join("data", "table"));
    await prepareData(dir, options);
    process.stdout.write(
      `${JSON.stringify({ bench: "table", dataOnly: path.relative(process.cwd(), dir) })}\n`,
    );
    return;
  }
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-table-"));
  const dataDir = path.join(work, "data");
  const configDir = path.join(work, "configs");
  fs.mkdirSync(configDir, { recursive: true });
  if (options.policies) fs.mkdirSync(options.policies, { recursive: true });
  try {
    await prepareData(dataDir, options);
    const jobs: Job[] = options.domains.flatMap((domain) =>
      options.scale.seeds.flatMap((seed) =>
        selectedRows(domain, options, seed).map((row) => ({ domain, seed, row })),
      ),
    );
    jobs.sort((a, b) => cost(b) - cost(a));
    const bar = new cliProgress.SingleBar(
      {
        format: "table [{bar}] {value}/{total} runs | {last}",
        stream: process.stderr,
        noTTYOutput: true,
        notTTYSchedule: 10_000,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(jobs.length, 0, { last: "" });
    const outcomes: RunOutcome[] = [];
    let next = 0;
    const lane = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const outcome = await runOne(job, dataDir, configDir, options.policies);
        outcomes.push(outcome);
        const shown = outcome.error ? "failed" : `${((outcome.finalSuccess ?? 0) * 100).toFixed(0)}%`;
        bar.increment(1, { last: `${job.domain} ${job.row.key} seed ${job.seed}: ${shown}` });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.jobs, jobs.length) }, lane));
    bar.stop();

    const summaries = options.domains.flatMap((domain) =>
      summarise(domain, selectedRows(domain, options, 0), outcomes, options.reference),
    );
    const minutes = (performance.now() - started) / 60_000;
    const meta = {
      commit: commit(),
      mode: options.mode,
      scale: options.scale,
      minutes,
      date: new Date().toISOString().slice(0, 10),
      heldOut: options.validation ? ("validation" as const) : ("test" as const),
      overrides: options.overrides,
      reference: options.reference?.source,
    };
    fs.mkdirSync(options.out, { recursive: true });
    // A partial or changed table never overwrites the reproduction table.
    const name = [
      options.mode === "quick" ? "table-quick" : "table",
      ...(options.validation ? ["validation"] : []),
      // A named part is a table of its own; other row selections are partial.
      ...(options.part !== undefined
        ? [options.part]
        : options.rows.length > 0 || options.overrides.length > 0
          ? ["partial"]
          : []),
    ].join("-");
    fs.writeFileSync(path.join(options.out, `${name}.md`), markdown(summaries, meta));
    const configs = Object.fromEntries(
      options.domains.flatMap((d) =>
        selectedRows(d, options, 0).map((r) => [`${d}:${r.key}`, RunConfig.parse(r.config)]),
      ),
    );
    fs.writeFileSync(
      path.join(options.out, `${name}.json`),
      `${JSON.stringify({ ...meta, scale: { ...options.scale, offline: options.domains.map(options.scale.offline) }, configs, summaries, runs: outcomes }, null, 2)}\n`,
    );
    const failed = outcomes.filter((o) => o.error);
    for (const f of failed) process.stderr.write(`failed: ${f.domain} ${f.key} seed ${f.seed}: ${f.error}\n`);
    process.stdout.write(
      `${JSON.stringify({ bench: "table", mode: options.mode, runs: outcomes.length, failed: failed.length, minutes: Number(minutes.toFixed(2)), out: path.relative(process.cwd(), path.join(options.out, `${name}.md`)) })}\n`,
    );
    if (failed.length > 0) process.exitCode = 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
