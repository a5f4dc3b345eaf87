import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { getRealDomain } from "@/core/envs/registry";
import { cosine } from "@/core/replay/cosine";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { transitionText } from "@/core/replay/transitionText";
import { rollout } from "@/core/rollout";
import type { Task, TrajectorySource } from "@/core/types";
import { Rng } from "@/core/util/random";
import {
  type AnnIndexPolicy,
  annParameters,
  DEFAULT_ANN_POLICY,
  DEFAULT_SEARCH_TUNING,
  type SearchTuning,
} from "@/server/replay/annIndex";
import { LanceReplayBuffer } from "@/server/replay/lanceReplayBuffer";
import type { StoredDemonstration, StoredTransition } from "@/server/replay/lanceSchema";

/**
 * `npm run bench -- retrieval --rows N [--queries 500] [--dir D]`: the replay buffer at scale. Builds N
 * transitions by rolling out noisy experts (ε = 0.3) over successive task indices of both real domains (every
 * transition comes from a real episode; 70% are labelled offline and 30% synthetic so that the source filter has
 * something to do), embeds them with the hashing embedder, writes them through the LanceDB store into a fresh
 * folder, builds the ANN index, then measures top-8 searches filtered by domain: ANN latency, exact (flat)
 * latency, and recall@8 of ANN against exact. Queries are transitions of new episodes (another seed) on tasks
 * already in the buffer, as the experience model's queries are during training.
 *
 * Recall counts an ANN result as right when its exact cosine is at least the 8th exact score: duplicated
 * transitions (the same state and action in two episodes) tie, and any of them is a right answer.
 *
 * Options to tune: --index ivf_pq|ivf_hnsw_sq, --rows-per-partition, --sub-vectors, --nprobes, --refine, --ef,
 * --prefilter (no postfilter-first), --sweep (a grid of search settings on the same index), --keep (leave the
 * folder), --reuse (measure again on the kept folder of an earlier run with the same --dir and --rows) with
 * --rebuild (train the index again, e.g. with other --index settings).
 *
 * Figures (2026-11-22, 2 cores shared with other jobs: load average 3–7 during the runs, so latencies are
 * pessimistic), defaults: IVF_PQ, 4,096 rows per partition, 32 sub-vectors, nprobes 10, refine 5, postfilter:
 * |                                   |     100k |       1M |
 * | insert rows/s, with embedding     |    4,686 |    4,783 |
 * | insert rows/s, without embedding  |    8,939 |    9,099 |
 * | ANN index build (s)               |     68.4 |    130.6 |
 * | top-8 ANN p50 / p95 (ms)          | 10.1/13.9| 14.2/19.3|
 * | top-8 ids only p50 / p95 (ms)     |  6.2/8.9 |  5.0/7.0 |
 * | top-8 exact p50 / p95 (ms)        | 67 / 100 | 883/1414 |
 * | recall@8 ANN vs exact             |   0.9948 |   0.9955 |
 * Repeated 1M runs under heavier load gave 17.1/27.3 and 6.8/11.3. "ids only" is the same search reading no
 * row columns: reading the 17 columns of 8 rows (LanceDB takes each column apart) is most of the rest. At 1M, IVF_HNSW_SQ (10 partitions, nprobes 4, ef 32) took 370 s to build
 * for recall 0.9735 at 20.8 ms; one HNSW partition, 459 s, 0.96 at 32 ms. Bare unfiltered probes (nprobes 1,
 * ids only) take 1.5 ms at 1M: the 2 ms goal holds for LanceDB's index probe, not for a filtered search that
 * reads whole rows, on this machine.
 */
export async function retrievalBench(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      rows: { type: "string", default: "100000" },
      queries: { type: "string", default: "500" },
      dir: { type: "string" },
      index: { type: "string", default: DEFAULT_ANN_POLICY.kind },
      "rows-per-partition": { type: "string", default: String(DEFAULT_ANN_POLICY.rowsPerPartition) },
      "sub-vectors": { type: "string", default: String(DEFAULT_ANN_POLICY.numSubVectors) },
      nprobes: { type: "string", default: String(DEFAULT_SEARCH_TUNING.nprobes) },
      refine: { type: "string", default: String(DEFAULT_SEARCH_TUNING.refineFactor) },
      ef: { type: "string", default: String(DEFAULT_SEARCH_TUNING.ef) },
      prefilter: { type: "boolean", default: !DEFAULT_SEARCH_TUNING.postfilter },
      sweep: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      reuse: { type: "boolean", default: false },
      rebuild: { type: "boolean", default: false },
    },
  });
  const rows = positive(values.rows, "--rows");
  const queryCount = positive(values.queries, "--queries");
  if (values.index !== "ivf_pq" && values.index !== "ivf_hnsw_sq") {
    throw new Error(`--index must be ivf_pq or ivf_hnsw_sq, got ${values.index}`);
  }
  const policy: AnnIndexPolicy = {
    ...DEFAULT_ANN_POLICY,
    kind: values.index,
    rowsPerPartition: positive(values["rows-per-partition"], "--rows-per-partition"),
    numSubVectors: positive(values["sub-vectors"], "--sub-vectors"),
  };
  const tuning: SearchTuning = {
    nprobes: positive(values.nprobes, "--nprobes"),
    refineFactor: Number(values.refine),
    ef: positive(values.ef, "--ef"),
    postfilter: !values.prefilter,
  };
  const dir = values.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-retrieval-"));
  fs.mkdirSync(dir, { recursive: true });
  const embedder = new HashNgramEmbedder();
  const saved = values.reuse ? readState(dir, rows) : undefined;
  if (!saved) await LanceReplayBuffer.drop(dir);
  const store = await LanceReplayBuffer.open({ dir, embedder, ann: policy, search: tuning });

  // 1. Generate, embed and write (or reuse the folder of an earlier run with the same --rows).
  const built = saved ?? (await writeTable(store, embedder, rows, dir));
  const sources = new TransitionSource(built.nextIndex);

  // 2. The ANN index (trained again on reuse when --rebuild), then the scalar indices (maintain()).
  let ann = await store.annIndex();
  let annSeconds = built.annSeconds;
  if (!saved || values.rebuild || !ann) {
    const t0 = performance.now();
    ann = await store.buildAnnIndex(policy);
    annSeconds = (performance.now() - t0) / 1000;
    writeState(dir, { ...built, annSeconds });
  }
  let t0 = performance.now();
  const report = await store.maintain();
  const maintainSeconds = (performance.now() - t0) / 1000;
  log(`ANN index ${JSON.stringify(ann)} in ${annSeconds.toFixed(1)} s`);
  log(`scalar indices ${JSON.stringify(report)} in ${maintainSeconds.toFixed(1)} s`);

  // 3. Queries: new episodes on tasks already in the buffer. Exact answers are kept in the folder for reuse.
  const queries = await sources.queries(queryCount);
  const queryVectors = await embedder.embed(queries.map(textOf));
  const exact = readExact(dir, queries) ?? (await timeQueries(store, queries, queryVectors, { exact: true }));
  writeExact(dir, queries, exact);
  t0 = performance.now();
  const headline = await timeQueries(store, queries, queryVectors, { tuning });
  const recall = await recallAt8(embedder, queryVectors, exact.results, headline.results);
  log(`exact p50 ${exact.p50.toFixed(2)} ms p95 ${exact.p95.toFixed(2)} ms`);
  log(
    `ann   p50 ${headline.p50.toFixed(2)} ms p95 ${headline.p95.toFixed(2)} ms recall@8 ${recall.toFixed(4)}`,
  );

  // The floor: the same ANN query asking for ids and distances only (no row columns, no parsing).
  const floor = await timeFloor(store, queries, queryVectors, tuning);
  log(`ann ids-only p50 ${floor.p50.toFixed(2)} ms p95 ${floor.p95.toFixed(2)} ms`);

  const sweep: Record<string, unknown>[] = [];
  if (values.sweep) {
    const grid =
      policy.kind === "ivf_pq"
        ? [5, 10, 20].flatMap((nprobes) =>
            [2, 5, 10].flatMap((refineFactor) =>
              [true, false].map((postfilter) => ({ ...tuning, nprobes, refineFactor, postfilter })),
            ),
          )
        : [1, 2, 4, 8].flatMap((nprobes) =>
            [0, 1].flatMap((refineFactor) =>
              [16, 32, 64].map((ef) => ({ ...tuning, nprobes, refineFactor, ef })),
            ),
          );
    for (const point of grid) {
      const run = await timeQueries(store, queries, queryVectors, { tuning: point });
      const runRecall = await recallAt8(embedder, queryVectors, exact.results, run.results);
      const line = { ...point, p50: round(run.p50), p95: round(run.p95), recall: round(runRecall, 4) };
      sweep.push(line);
      log(`  sweep ${JSON.stringify(line)}`);
    }
  }
  store.close();
  if (!values.keep && !values.dir) fs.rmSync(dir, { recursive: true, force: true });

  const { rolloutMs, embedMs, writeMs } = built;
  const totalSeconds = (rolloutMs + embedMs + writeMs) / 1000;
  const figures = {
    bench: "retrieval",
    rows,
    queries: queries.length,
    distinctVectors: built.distinctVectors,
    embedder: embedder.id,
    rolloutSeconds: round(rolloutMs / 1000, 1),
    insertRowsPerSecondWithEmbedding: Math.round(rows / ((embedMs + writeMs) / 1000)),
    insertRowsPerSecondWithoutEmbedding: Math.round(rows / (writeMs / 1000)),
    embedRowsPerSecond: Math.round(rows / (embedMs / 1000)),
    compactionSeconds: round(built.compactSeconds, 1),
    indexBuildSeconds: round(annSeconds, 1),
    scalarIndexSeconds: round(maintainSeconds, 1),
    index: { ...annParameters(policy, rows), ...(ann ? { name: ann.name } : {}) },
    search: tuning,
    annP50Ms: round(headline.p50),
    annIdsOnlyP50Ms: round(floor.p50),
    annIdsOnlyP95Ms: round(floor.p95),
    annP95Ms: round(headline.p95),
    exactP50Ms: round(exact.p50),
    exactP95Ms: round(exact.p95),
    recallAt8: round(recall, 4),
    totalSeconds: round(totalSeconds, 1),
    ...(sweep.length ? { sweep } : {}),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

interface BuiltTable {
  rows: number;
  nextIndex: Record<string, number>;
  distinctVectors: number;
  rolloutMs: number;
  embedMs: number;
  writeMs: number;
  compactSeconds: number;
  annSeconds: number;
}

async function writeTable(
  store: LanceReplayBuffer,
  embedder: HashNgramEmbedder,
  rows: number,
  dir: string,
): Promise<BuiltTable> {
  log(`writing ${rows} transitions into ${dir}`);
  const chunk = 20_000;
  const sources = new TransitionSource();
  let written = 0;
  let rolloutMs = 0;
  let embedMs = 0;
  let writeMs = 0;
  const distinct = new Set<number>();
  while (written < rows) {
    let t0 = performance.now();
    const batch = await sources.next(Math.min(chunk, rows - written));
    rolloutMs += performance.now() - t0;
    t0 = performance.now();
    const batchTexts = batch.map(textOf);
    const vectors = await embedder.embed(batchTexts);
    embedMs += performance.now() - t0;
    for (const v of vectors) distinct.add(fingerprint(v));
    t0 = performance.now();
    await store.upsertEmbedded(batch, batchTexts, vectors);
    writeMs += performance.now() - t0;
    written += batch.length;
    log(`  ${written} rows (rollouts ${s(rolloutMs)} s, embedding ${s(embedMs)} s, writing ${s(writeMs)} s)`);
  }
  const count = await store.count();
  if (count !== rows) throw new Error(`the table has ${count} rows, expected ${rows}`);
  // Compact the write fragments before training, as maintain() does.
  const t0 = performance.now();
  await store.optimize();
  const compactSeconds = (performance.now() - t0) / 1000;
  log(`compaction ${compactSeconds.toFixed(1)} s`);
  const built = {
    rows,
    nextIndex: sources.nextIndex,
    distinctVectors: distinct.size,
    rolloutMs,
    embedMs,
    writeMs,
    compactSeconds,
    annSeconds: 0,
  };
  writeState(dir, built);
  return built;
}

const STATE_FILE = "retrieval-bench.json";
const EXACT_FILE = "retrieval-bench-exact.json";

function readState(dir: string, rows: number): BuiltTable | undefined {
  const file = path.join(dir, STATE_FILE);
  if (!fs.existsSync(file)) throw new Error(`--reuse: ${file} does not exist (run once with --keep --dir)`);
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as BuiltTable;
  if (state.rows !== rows) throw new Error(`--reuse: ${dir} holds ${state.rows} rows, not ${rows}`);
  return state;
}

function writeState(dir: string, state: BuiltTable) {
  fs.writeFileSync(path.join(dir, STATE_FILE), JSON.stringify(state));
}

type ExactResults = { p50: number; p95: number; results: { id: string; score: number }[][] };

function readExact(dir: string, queries: StoredTransition[]): ExactResults | undefined {
  const file = path.join(dir, EXACT_FILE);
  if (!fs.existsSync(file)) return undefined;
  const saved = JSON.parse(fs.readFileSync(file, "utf8")) as ExactResults & { queries: string[] };
  return saved.queries.join() === queries.map((q) => q.id).join() ? saved : undefined;
}

function writeExact(dir: string, queries: StoredTransition[], exact: ExactResults) {
  const results = exact.results.map((r) => r.map((d) => ({ id: d.id, score: d.score })));
  const saved = { queries: queries.map((q) => q.id), p50: exact.p50, p95: exact.p95, results };
  fs.writeFileSync(path.join(dir, EXACT_FILE), JSON.stringify(saved));
}

const DOMAINS = REAL_DOMAIN_NAMES;
const EPSILON = 0.3;

/** Transitions from real episodes, alternating domains episode by episode, over successive task indices. */
class TransitionSource {
  readonly nextIndex: Record<string, number>;
  private serial = 0;

  constructor(nextIndex: Record<string, number> = { shop: 0, household: 0 }) {
    this.nextIndex = { ...nextIndex };
  }

  async next(count: number): Promise<StoredTransition[]> {
    const out: StoredTransition[] = [];
    let turn = 0;
    while (out.length < count) {
      const name = DOMAINS[turn++ % DOMAINS.length]!;
      const index = this.nextIndex[name]!++;
      const source: TrajectorySource = index % 10 < 7 ? "offline" : "synthetic";
      out.push(...(await this.episode(name, index, index, source)));
    }
    return out.slice(0, count);
  }

  /** One transition from each of `count` new episodes (another seed) on tasks already written. */
  async queries(count: number): Promise<StoredTransition[]> {
    const rng = new Rng("retrieval-queries");
    const out: StoredTransition[] = [];
    while (out.length < count) {
      const name = DOMAINS[out.length % DOMAINS.length]!;
      const index = rng.int(0, Math.max(0, this.nextIndex[name]! - 1));
      const steps = await this.episode(name, index, 1_000_000 + index, "offline");
      if (steps.length) out.push(rng.pick(steps));
    }
    return out;
  }

  private async episode(name: string, index: number, seed: number, source: TrajectorySource) {
    const domain = getRealDomain(name);
    const task: Task = domain.task("train", index);
    const episode = await rollout(
      domain.createEnvironment(),
      domain.noisy(seed, EPSILON),
      task,
      domain.maxSteps,
    );
    const trajectoryId = `${name}-${seed}-${this.serial++}`;
    return episode.steps.map(
      (step, i): StoredTransition => ({
        ...step,
        id: `${trajectoryId}-${i}`,
        trajectoryId,
        domain: name,
        source,
        instruction: task.instruction,
        taskId: task.id,
        runId: null,
        iteration: null,
      }),
    );
  }
}

interface Timed {
  p50: number;
  p95: number;
  results: StoredDemonstration[][];
}

async function timeQueries(
  store: LanceReplayBuffer,
  queries: StoredTransition[],
  vectors: Float32Array[],
  options: { exact?: boolean; tuning?: SearchTuning },
): Promise<Timed> {
  const search = (i: number) =>
    store.nearest(
      vectors[i]!,
      8,
      { domain: queries[i]!.domain },
      options.exact ? { exact: true } : { tuning: options.tuning! },
    );
  for (let i = 0; i < Math.min(20, queries.length); i++) await search(i); // warm the caches
  const times: number[] = [];
  const results: Timed["results"] = [];
  for (let i = 0; i < queries.length; i++) {
    const t0 = performance.now();
    const found = await search(i);
    times.push(performance.now() - t0);
    results.push(found);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), results };
}

/** Latency of the bare LanceDB query (ids and distances), to separate LanceDB's cost from reading rows. */
async function timeFloor(
  store: LanceReplayBuffer,
  queries: StoredTransition[],
  vectors: Float32Array[],
  tuning: SearchTuning,
): Promise<{ p50: number; p95: number }> {
  const search = (i: number) => store.nearestIds(vectors[i]!, 8, { domain: queries[i]!.domain }, tuning);
  for (let i = 0; i < Math.min(20, queries.length); i++) await search(i);
  const times: number[] = [];
  for (let i = 0; i < queries.length; i++) {
    const t0 = performance.now();
    await search(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/**
 * Share of ANN results whose exact cosine reaches the 8th exact score (ties count as right). The exact cosine of
 * an ANN result is recomputed from its text (the embedder is deterministic), since without refinement the
 * scores an ANN search reports are PQ approximations.
 */
async function recallAt8(
  embedder: HashNgramEmbedder,
  queryVectors: Float32Array[],
  exact: { id: string; score: number }[][],
  ann: Timed["results"],
): Promise<number> {
  let hits = 0;
  let total = 0;
  for (const [i, truth] of exact.entries()) {
    const threshold = (truth[truth.length - 1]?.score ?? 0) - 1e-5;
    const exactIds = new Set(truth.map((d) => d.id));
    total += truth.length;
    for (const found of ann[i]!) {
      if (exactIds.has(found.id)) {
        hits++;
        continue;
      }
      const [v] = await embedder.embed([textOf(found)]);
      if (cosine(v!, queryVectors[i]!) >= threshold) hits++;
    }
  }
  return total === 0 ? 1 : Math.min(1, hits / total);
}

function textOf(t: { instruction: string; state: { text: string }; action: string }): string {
  return transitionText({ instruction: t.instruction, state: t.state.text, action: t.action });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Distinct vectors, as a measure of how many transitions are duplicates of one another. */
function fingerprint(v: Float32Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < v.length; i += 4) h = Math.imul(h ^ Math.round(v[i]! * 1e6), 0x01000193);
  return h >>> 0;
}

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${value}`);
  return n;
}

function round(x: number, digits = 2): number {
  return Number(x.toFixed(digits));
}

function s(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function log(line: string) {
  process.stderr.write(`${line}\n`);
}
