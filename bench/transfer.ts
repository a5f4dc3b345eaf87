/**
 * `npm run bench -- transfer [--domains household] [--seeds 0,1,2,3,4] [--episodes 100] [--no-write]`: how the
 * synthetic environment scores a policy that learnt the real one. Real-env GRPO is trained as the reproduction
 * table's row is (bench/table/spec.ts, full scale, one run per seed); each final policy then plays the same
 * validation tasks in the real environment and in the synthetic one (the embedded experience model on the table's
 * offline data, as the fidelity bench builds it). A synthetic environment that trains well must not fail what works
 * for real: where it scores the real policy far below its real success, a policy trained in it is kept from
 * learning that way of working (a page offering nothing to put down, a thing still shown where the agent took it).
 * Writes bench/results/transfer-<domain>.json.
 */
import fs from "node:fs";
import path from "node:path";
import cliProgress from "cli-progress";
import type { RealDomainName } from "@/core/envs/names";
import { getRealDomain } from "@/core/envs/registry";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { SyntheticEnvironment } from "@/core/experience/synthetic";
import type { ExperienceSettings } from "@/core/experience/types";
import { loadCheckpoint } from "@/core/policy/checkpoint";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import { parseRunConfig } from "@/core/train/config";
import { evaluatePolicy } from "@/core/train/evaluate";
import { heldOutTasks } from "@/core/train/heldOut";
import { applyOverride } from "@/core/train/overrides";
import { runTraining } from "@/core/train/run";
import { offlineData } from "./fidelity";
import { domainsFlag, flagValue } from "./flags";
import { commit } from "./table";
import { SCALES, tableRows } from "./table/spec";
import { meanInterval, welch } from "./table/stats";

const ROW = "real/grpo";

interface Options {
  domains: RealDomainName[];
  seeds: number[];
  episodes: number;
  write: boolean;
  out: string;
}

function parse(args: string[]): Options {
  const value = (flag: string) => flagValue(args, flag);
  const domains = domainsFlag(args, ["household"]);
  const seeds = (value("--seeds") ?? "0,1,2,3,4").split(",").map((s) => Number.parseInt(s, 10));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new Error("--seeds: not a list of seeds");
  const episodes = Number.parseInt(value("--episodes") ?? "100", 10);
  if (!Number.isInteger(episodes) || episodes < 1) throw new Error("--episodes: not a positive integer");
  return {
    domains,
    seeds,
    episodes,
    write: !args.includes("--no-write"),
    out: path.resolve(value("--out") ?? path.join("bench", "results")),
  };
}

function summary(values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : null;
  return { values, mean, sd, n, interval95: meanInterval(mean, sd, n) };
}

async function measureDomain(name: RealDomainName, options: Options, bar: cliProgress.SingleBar) {
  const started = performance.now();
  const domain = getRealDomain(name);
  const transitions = await offlineData(domain);
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  await buffer.add(transitions);
  const settings: ExperienceSettings = { k: 8, historyWindow: 4, reasoning: true, sources: ["offline"] };
  const tasks = heldOutTasks(domain, "validation", options.episodes);
  // Learnt once; each seed's model is new, so that no prediction memo carries over from one policy to the next.
  const memory = OfflineMemory.fromTransitions(transitions, domain.declarations);
  const real: number[] = [];
  const synthetic: number[] = [];
  for (const seed of options.seeds) {
    const row = tableRows(name, SCALES.full, seed).find((r) => r.key === ROW);
    if (!row) throw new Error(`the table has no ${ROW} row for ${name}`);
    // Its own real success is read below on validation tasks; the run's own evaluation is not needed.
    const raw = structuredClone(row.config);
    applyOverride(raw, "evaluation.episodes=1");
    const config = parseRunConfig(raw, `${name} ${ROW} seed ${seed}`);
    bar.update({ what: `${name} seed ${seed}: training in the real environment` });
    const result = await runTraining(config, { domain });
    const { policy } = loadCheckpoint(result.checkpoint, domain.candidateActions.bind(domain));
    bar.update({ what: `${name} seed ${seed}: playing the real and the synthetic environment` });
    const model = new RetrievalExperienceModel(settings, memory);
    const makeEnv = () =>
      new SyntheticEnvironment(
        name,
        model,
        buffer,
        settings,
        async (task) => domain.createEnvironment().reset(task),
        domain.maxSteps,
      );
    const key = `transfer:${seed}`;
    real.push((await evaluatePolicy(domain, policy, tasks, { key })).successRate * 100);
    synthetic.push((await evaluatePolicy(domain, policy, tasks, { key, makeEnv })).successRate * 100);
    bar.increment(1, { what: `${name} seed ${seed}: real ${real.at(-1)}%, synthetic ${synthetic.at(-1)}%` });
  }
  const r = summary(real);
  const s = summary(synthetic);
  return {
    commit: commit(),
    domain: name,
    row: ROW,
    scale: "full",
    tasks: `validation, ${options.episodes}`,
    seeds: options.seeds,
    model: "embedded retrieval experience model on the table's offline data",
    settings,
    real: r,
    synthetic: s,
    // Synthetic minus real, with Welch's 95% interval: inside the noise where it holds 0.
    gap: welch(s, r),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

export async function transferBench(args: string[]) {
  const options = parse(args);
  const bar = new cliProgress.SingleBar(
    { format: "transfer [{bar}] {value}/{total} | {what}", stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  bar.start(options.domains.length * options.seeds.length, 0, { what: "offline data" });
  try {
    for (const name of options.domains) {
      const result = await measureDomain(name, options, bar);
      const file = path.join(options.out, `transfer-${name}.json`);
      if (options.write) {
        fs.mkdirSync(options.out, { recursive: true });
        fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
      }
      process.stdout.write(
        `${JSON.stringify({
          bench: "transfer",
          domain: name,
          real: Number(result.real.mean.toFixed(1)),
          synthetic: Number(result.synthetic.mean.toFixed(1)),
          gap: result.gap,
          seconds: result.seconds,
          ...(options.write ? { out: path.relative(process.cwd(), file) } : {}),
        })}\n`,
      );
    }
  } finally {
    bar.stop();
  }
}
