/**
 * `npm run bench -- real-phase [--domain shop] [--seeds 0,1,2,3,4] [--episodes 2000]
 *   [--variant name:key=value,key=value]...`: DreamGym-S2R's real phase under several settings, each resumed from
 * the same synthetic phase. The table's S2R row (bench/table/spec.ts) trains its synthetic phase once per seed; every
 * variant then spends the real budget from that policy and is scored on validation tasks (never the test tasks). A
 * variant changes the run config by dotted path, as `train --set` does, so it can change anything the real phase
 * reads (GRPO's settings, the batch shape, the schedule: `syntheticTransitions` and `experimental.realInterleave`
 * add a synthetic tail with real iterations inside it). The synthetic phase is most of an S2R run's time, so a
 * variant costs seconds, and seeds of the real phase alone can be compared over many evaluation episodes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import cliProgress from "cli-progress";
import { isRealDomainName, type RealDomainName } from "@/core/envs/names";
import { parseRunConfig } from "@/core/train/config";
import { applyOverride } from "@/core/train/overrides";
import type { RunState } from "@/core/train/run";
import { SCALES, tableRows } from "./table/spec";

const S2R_ROW = "dreamgym-s2r/grpo";

interface Options {
  domain: RealDomainName;
  seeds: number[];
  episodes: number;
  variants: { name: string; assignments: string[] }[];
}

function parseArgs(args: string[]): Options {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const domain = value("--domain") ?? "shop";
  if (!isRealDomainName(domain)) throw new Error(`--domain: "${domain}" is not a built-in domain`);
  const seeds = (value("--seeds") ?? "0,1,2,3,4").split(",").map((s) => Number.parseInt(s, 10));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new Error(`--seeds: not a list of seeds`);
  const episodes = Number.parseInt(value("--episodes") ?? "2000", 10);
  if (!Number.isInteger(episodes) || episodes < 1) throw new Error(`--episodes: not a positive integer`);
  const variants = [{ name: "as in the table", assignments: [] as string[] }];
  args.forEach((arg, i) => {
    if (arg !== "--variant") return;
    const text = args[i + 1] ?? "";
    const colon = text.indexOf(":");
    if (colon <= 0)
      throw new Error(`--variant ${text}: expected name:key=value[,key=value], e.g. ep16:grpo.epochs=16`);
    variants.push({ name: text.slice(0, colon), assignments: text.slice(colon + 1).split(",") });
  });
  return { domain, seeds, episodes, variants };
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sd = (xs: number[]) =>
  xs.length < 2 ? 0 : Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

export async function realPhaseBench(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-real-phase-"));
  process.env.DREAMGYM_DATA_DIR = dataDir;
  process.env.DREAMGYM_THREADS = "0";
  const { config: appConfig } = await import("@/env");
  const { migrateDeploy } = await import("@/server/migrate");
  const { getDb } = await import("@/server/db");
  const { collectOffline } = await import("@/server/collect/collectOffline");
  const { indexPending } = await import("@/server/replay/syncSteps");
  const { runDeps } = await import("@/server/train/runDeps");
  const { runTraining } = await import("@/core/train/run");
  const scale = SCALES.full;
  await migrateDeploy(appConfig().databaseUrl);
  const db = await getDb();
  for (const collection of scale.offline(options.domain)) await collectOffline(db, collection);
  await indexPending(db);

  const configOf = (seed: number, assignments: readonly string[]) => {
    const row = tableRows(options.domain, scale, seed).find((r) => r.key === S2R_ROW);
    if (!row) throw new Error(`the table has no ${S2R_ROW} row for ${options.domain}`);
    const config = structuredClone(row.config);
    for (const assignment of [
      "evaluation.tasks=validation",
      `evaluation.episodes=${options.episodes}`,
      "evaluation.simulated=0",
      ...assignments,
    ])
      applyOverride(config, assignment);
    return parseRunConfig(config, `variant (seed ${seed}: ${assignments.join(", ") || "as in the table"})`);
  };

  const bar = new cliProgress.SingleBar(
    { format: "real phase [{bar}] {value}/{total} | {what}", stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  bar.start(options.seeds.length * (1 + options.variants.length), 0, { what: "synthetic phase" });
  const success = new Map<string, number[]>(options.variants.map((v) => [v.name, []]));
  try {
    for (const seed of options.seeds) {
      // The synthetic phase once: the run is stopped as its first real iteration is reported.
      const config = configOf(seed, []);
      const deps = await runDeps(db, config);
      const stop = new AbortController();
      let synthetic: RunState | undefined;
      await runTraining(config, {
        ...deps,
        signal: stop.signal,
        onIteration: (report) => {
          if (report.phase === "real") stop.abort();
          else synthetic = report.state;
        },
      }).catch((error: unknown) => {
        if (!stop.signal.aborted) throw error;
      });
      await deps.close();
      if (!synthetic) throw new Error(`seed ${seed}: the synthetic phase finished no iteration`);
      bar.increment(1, { what: `seed ${seed}: real phases` });
      for (const variant of options.variants) {
        const variantConfig = configOf(seed, variant.assignments);
        const variantDeps = await runDeps(db, variantConfig);
        const result = await runTraining(variantConfig, {
          ...variantDeps,
          resume: structuredClone(synthetic),
        });
        await variantDeps.close();
        success.get(variant.name)?.push(result.final.successRate * 100);
        bar.increment(1, {
          what: `seed ${seed} ${variant.name}: ${(result.final.successRate * 100).toFixed(1)}%`,
        });
      }
    }
  } finally {
    bar.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const rows = options.variants.map((v) => {
    const xs = success.get(v.name) ?? [];
    return { variant: v.name, settings: v.assignments, mean: mean(xs), sd: sd(xs), perSeed: xs };
  });
  process.stdout.write(
    `${options.domain} S2R real phase, validation success % (${options.episodes} episodes; seeds ${options.seeds.join(", ")}):\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `  ${r.variant.padEnd(24)} ${r.mean.toFixed(1)} ± ${r.sd.toFixed(1)}   ${r.perSeed.map((x) => x.toFixed(1)).join(" / ")}\n`,
    );
  process.stdout.write(`${JSON.stringify({ bench: "real-phase", domain: options.domain, rows })}\n`);
  process.exit(0);
}
