/**
 * `npm run bench -- transfer [--domains household] [--seeds 0,1,2,3,4] [--episodes 100] [--no-write]`: how the
 * synthetic environment scores a policy that learnt the real one. Real-env GRPO is trained as the reproduction
 * table's row is (bench/table/spec.ts, full scale, one run per seed); each final policy then plays the same
 * validation tasks in the real environment and in the synthetic one (the embedded experience model on the table's
 * offline data, as the fidelity bench builds it). A synthetic environment that trains well must not fail what works
 * for real: where it scores the real policy far below its real success, a policy trained in it is kept from
 * learning that way of working (a page offering nothing to put down, a thing still shown where the agent took it).
 * Writes bench/results/transfer-<domain>.json.
 *
 * `--policy <file>[,<file>…] --label <name>` plays saved policies instead (`train --checkpoint <file>`), such as
 * DreamGym's: where the synthetic environment pays what the real one does not, its policy learns to please the
 * model. Writes transfer-<domain>-<name>.json. Either way the file lists the tasks the two environments disagree
 * on most, and success by the instructions' first two words (a kind of request, in most domains).
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
import type { Episode } from "@/core/rollout";
import { parseRunConfig } from "@/core/train/config";
import { playEvaluation, summarise } from "@/core/train/evaluate";
import { heldOutTasks } from "@/core/train/heldOut";
import { applyOverride } from "@/core/train/overrides";
import { runTraining } from "@/core/train/run";
import type { Task } from "@/core/types";
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
  /** Saved policies to play instead of training real-env GRPO, and the name their results are written under. */
  policies?: { files: string[]; label: string };
}

function parse(args: string[]): Options {
  const value = (flag: string) => flagValue(args, flag);
  const domains = domainsFlag(args, ["household"]);
  const seeds = (value("--seeds") ?? "0,1,2,3,4").split(",").map((s) => Number.parseInt(s, 10));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new Error("--seeds: not a list of seeds");
  const episodes = Number.parseInt(value("--episodes") ?? "100", 10);
  if (!Number.isInteger(episodes) || episodes < 1) throw new Error("--episodes: not a positive integer");
  const files = value("--policy")
    ?.split(",")
    .filter((f) => f.length > 0);
  const label = value("--label");
  if (files !== undefined && (label === undefined || !/^[a-z0-9-]+$/.test(label)))
    throw new Error(
      "--policy needs --label <name> (lower-case letters, digits and dashes): the results' file name",
    );
  for (const file of files ?? [])
    if (!fs.existsSync(file))
      throw new Error(`--policy: no file at ${file} (write one with train --checkpoint)`);
  return {
    domains,
    seeds,
    episodes,
    write: !args.includes("--no-write"),
    out: path.resolve(value("--out") ?? path.join("bench", "results")),
    ...(files && label ? { policies: { files, label } } : {}),
  };
}

/** How often each task ended well in each environment, over the policies played. */
interface Tally {
  real: number[];
  synthetic: number[];
}

/**
 * The tasks the environments disagree on most (the synthetic one pays, the real one does not, and the other way
 * round), and success by the instructions' first two words: where a policy trained in the synthetic environment
 * learnt what the real one does not pay, these are the requests to read episode by episode.
 */
function disagreements(tasks: readonly Task[], tally: Tally, policies: number) {
  const rows = tasks.map((task, i) => ({
    task: task.id,
    instruction: task.instruction,
    real: tally.real[i] ?? 0,
    synthetic: tally.synthetic[i] ?? 0,
  }));
  const most = (sign: 1 | -1) =>
    rows
      .filter((r) => sign * (r.synthetic - r.real) > 0)
      .sort((a, b) => sign * (b.synthetic - b.real) - sign * (a.synthetic - a.real))
      .slice(0, 10);
  const kinds = new Map<string, { tasks: number; real: number; synthetic: number }>();
  for (const r of rows) {
    const kind = r.instruction.trim().toLowerCase().split(/\s+/).slice(0, 2).join(" ");
    const k = kinds.get(kind) ?? { tasks: 0, real: 0, synthetic: 0 };
    k.tasks++;
    k.real += r.real;
    k.synthetic += r.synthetic;
    kinds.set(kind, k);
  }
  return {
    policies,
    syntheticOnly: most(1),
    realOnly: most(-1),
    // Successes summed over the policies played: of tasks × policies episodes.
    byKind: Object.fromEntries([...kinds].sort((a, b) => b[1].tasks - a[1].tasks)),
  };
}

const count = (episodes: readonly Episode[], into: number[]) =>
  episodes.forEach((e, i) => {
    into[i] = (into[i] ?? 0) + (e.success ? 1 : 0);
  });

function summary(values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : null;
  return { values, mean, sd, n, interval95: meanInterval(mean, sd, n) };
}

/** Real-env GRPO trained as the table's row is, for one seed: its final policy's checkpoint. */
async function trainReal(name: RealDomainName, seed: number, bar: cliProgress.SingleBar) {
  const domain = getRealDomain(name);
  const row = tableRows(name, SCALES.full, seed).find((r) => r.key === ROW);
  if (!row) throw new Error(`the table has no ${ROW} row for ${name}`);
  // Its own real success is read on validation tasks; the run's own evaluation is not needed.
  const raw = structuredClone(row.config);
  applyOverride(raw, "evaluation.episodes=1");
  const config = parseRunConfig(raw, `${name} ${ROW} seed ${seed}`);
  bar.update({ what: `${name} seed ${seed}: training in the real environment` });
  return (await runTraining(config, { domain })).checkpoint;
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
  const tally: Tally = { real: [], synthetic: [] };
  const runs = options.policies
    ? options.policies.files.map((file) => ({ what: path.basename(file), file, seed: undefined }))
    : options.seeds.map((seed) => ({ what: `seed ${seed}`, file: undefined, seed }));
  for (const [i, run] of runs.entries()) {
    const { policy } = loadCheckpoint(
      run.file ? JSON.parse(fs.readFileSync(run.file, "utf8")) : await trainReal(name, run.seed ?? 0, bar),
      domain.candidateActions.bind(domain),
    );
    bar.update({ what: `${name} ${run.what}: playing the real and the synthetic environment` });
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
    const key = `transfer:${run.seed ?? i}`;
    const inReal = await playEvaluation(domain, policy, tasks, { key });
    const inSynthetic = await playEvaluation(domain, policy, tasks, { key, makeEnv });
    count(inReal, tally.real);
    count(inSynthetic, tally.synthetic);
    real.push(summarise(inReal).successRate * 100);
    synthetic.push(summarise(inSynthetic).successRate * 100);
    bar.increment(1, { what: `${name} ${run.what}: real ${real.at(-1)}%, synthetic ${synthetic.at(-1)}%` });
  }
  const r = summary(real);
  const s = summary(synthetic);
  return {
    commit: commit(),
    domain: name,
    ...(options.policies
      ? { policies: options.policies.files.map((f) => path.basename(f)) }
      : { row: ROW, scale: "full" }),
    tasks: `validation, ${options.episodes}`,
    seeds: options.seeds,
    model: "embedded retrieval experience model on the table's offline data",
    settings,
    real: r,
    synthetic: s,
    // Synthetic minus real, with Welch's 95% interval: inside the noise where it holds 0.
    gap: welch(s, r),
    disagreements: disagreements(tasks, tally, runs.length),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

export async function transferBench(args: string[]) {
  const options = parse(args);
  const bar = new cliProgress.SingleBar(
    { format: "transfer [{bar}] {value}/{total} | {what}", stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const runs = options.policies?.files.length ?? options.seeds.length;
  bar.start(options.domains.length * runs, 0, { what: "offline data" });
  try {
    for (const name of options.domains) {
      const result = await measureDomain(name, options, bar);
      const label = options.policies ? `-${options.policies.label}` : "";
      const file = path.join(options.out, `transfer-${name}${label}.json`);
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
