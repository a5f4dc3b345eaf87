import fs from "node:fs";
import path from "node:path";
import { parseRunConfig, type RunConfig } from "@/core/train/config";
import { Rng } from "@/core/util/random";
import { createCaller } from "@/server/api/root";
import { signedIn } from "@/server/api/testing";
import type { Db } from "@/server/db";
import { RUN_PRESETS } from "./plan";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The sample file imports take their lines from (web-admin logs in the project's import format). */
export const SAMPLE_FILE = path.join(ROOT, "samples", "web-admin.jsonl");

export function sampleLines(): string[] {
  return fs.readFileSync(SAMPLE_FILE, "utf8").split("\n").filter(Boolean);
}

/** A small run of a preset: a few iterations, so that many start and finish (and die) within minutes. */
export function soakRunConfig(preset: number, seed: number, index: number): RunConfig {
  const p = RUN_PRESETS[preset];
  if (!p) throw new Error(`no run preset ${preset}`);
  return parseRunConfig({
    name: `soak ${index}: ${p.name} (seed ${seed})`,
    method: p.method,
    domain: p.domain,
    algorithm: p.algorithm,
    seed,
    iterations: 3,
    tasksPerBatch: 3,
    groupSize: 3,
    seedTasks: 12,
    evaluation: { interval: 3, episodes: 4, simulated: 2 },
    // Iterations alone end the real-env runs, so that every run's rollouts are known in advance.
    realTransitions: 10_000_000,
  });
}

/** Rollouts each finished iteration of the run stores. */
export function rolloutsPerIteration(config: RunConfig): number {
  return config.tasksPerBatch * config.groupSize;
}

export interface ImportFile {
  name: string;
  path: string;
  trajectories: number;
  steps: number;
}

/**
 * An import of `lines` lines of the sample file from `first`, each marked with the import's number in its first
 * state, so that no two imports hold the same trajectory (imports skip what is already there) while their tasks
 * (the sample's task ids) are shared, as two uploads of overlapping logs share them.
 */
export function writeImportFile(dir: string, n: number, first: number, lines: number): ImportFile {
  const chosen = sampleLines().slice(first, first + lines);
  let steps = 0;
  const out = chosen.map((line) => {
    const t = JSON.parse(line) as { steps: { state: string }[] };
    const [head] = t.steps;
    if (head) head.state = `[soak import ${n}] ${head.state}`;
    steps += t.steps.length;
    return JSON.stringify(t);
  });
  const name = `soak-import-${n}.jsonl`;
  const file = path.join(dir, "imports", name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${out.join("\n")}\n`);
  return { name, path: file, trajectories: chosen.length, steps };
}

/** What the UI reads, by tRPC call, as a signed-in viewer would: one call picked at random each time. */
export class UiReader {
  private readonly rng: Rng;
  private readonly caller;
  reads = 0;
  readonly byCall: Record<string, number> = {};

  constructor(
    db: Db,
    seed: number,
    /** Runs the soak knows of (some deleted by the time they are read: NOT_FOUND is then the right answer). */
    private readonly runIds: () => string[],
  ) {
    this.rng = new Rng(`soak-ui:${seed}`);
    this.caller = createCaller(signedIn(db, "viewer"));
  }

  private someRun(): string | undefined {
    const ids = this.runIds();
    return ids.length ? this.rng.pick(ids) : undefined;
  }

  /** One read; resolves with its name. Throws what the call threw (NOT_FOUND included). */
  async readOnce(): Promise<string> {
    const c = this.caller;
    const calls: [string, () => Promise<unknown>][] = [
      ["runs.list", () => c.runs.list({ limit: 50 })],
      ["jobs.list", () => c.jobs.list({ limit: 50 })],
      ["trajectories.list", () => c.trajectories.list({ page: 0, pageSize: 20 })],
      [
        "trajectories.get",
        async () => {
          const page = await c.trajectories.list({ page: 0, pageSize: 5 });
          const first = page.items[0];
          if (first) await c.trajectories.get({ id: first.id });
        },
      ],
      ["trajectories.imports", () => c.trajectories.imports()],
      ["curriculum.runs", () => c.curriculum.runs({ limit: 50 })],
      ["domains.list", () => c.domains.list()],
      [
        "runs.get",
        async () => {
          const id = this.someRun();
          if (id) await c.runs.get({ id });
        },
      ],
      [
        "curriculum.heatmap",
        async () => {
          const id = this.someRun();
          if (id) await c.curriculum.heatmap({ runId: id });
        },
      ],
      [
        "runs.deletePreview",
        async () => {
          const id = this.someRun();
          if (id) await c.runs.deletePreview({ id });
        },
      ],
    ];
    const [name, call] = this.rng.pick(calls);
    this.reads++;
    this.byCall[name] = (this.byCall[name] ?? 0) + 1;
    await call();
    return name;
  }
}

/** A tRPC NOT_FOUND: the run read was deleted in between, which the UI shows as gone. */
export function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "NOT_FOUND";
}
