import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createCaller } from "@/server/api/root";
import { signedIn } from "@/server/api/testing";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { runFidelity } from "@/server/steps/runFidelity";

/**
 * How long the flagged list takes to load with many finished runs: the queries the page makes (runs and facets
 * for the filters, the first page of flagged steps, and the fidelity figures of the newest runs it shows), on a
 * real SQLite database of `runs` finished shop runs, each with synthetic episodes that have the real answers and
 * some flagged steps. Three figures: reading the fidelity stored with each run (Run.fidelity, what the page does
 * now), the first load where no run has it yet (measured once and stored), and recomputing it on every load (what
 * the page did before). Writes bench/results/flagged-list.json.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const TARGET_MS = 1_000;
/** The page shows the fidelity of this many of the newest runs when no run is chosen (features/flags). */
const RUNS_SHOWN = 3;

const round = (x: number) => Math.round(x * 10) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** A shop-like results page: ten products in [SEP]-joined fields, as the built-in environment writes them. */
function page(step: number, variant: number): string {
  const products = Array.from({ length: 10 }, (_, i) => {
    const n = (step * 7 + i * 13 + variant * (i % 3 === 0 ? 5 : 0)) % 97;
    return `B00${1000 + n} [SEP] Item ${n} Wireless Earbuds, Fast Charging & Stereo Sound [SEP] $${(10 + n * 1.37).toFixed(2)}`;
  });
  return `Instruction: [SEP] i need wireless earbuds under 90 dollars [SEP] Back to Search [SEP] Page ${step + 1} [SEP] ${products.join(" [SEP] ")}`;
}

/** `runs` finished runs of `episodes` synthetic episodes of `steps` steps each, every 50th step flagged. */
async function seed(db: Db, runs: number, episodes: number, steps: number): Promise<void> {
  await db.task.create({
    data: { id: "bench:flagged", domain: "shop", instruction: "i need wireless earbuds under 90 dollars" },
  });
  let flagged = 0;
  for (let r = 0; r < runs; r++) {
    const run = await db.run.create({
      data: {
        name: `bench run ${r}`,
        method: "dreamgym",
        domain: "shop",
        algorithm: "grpo",
        config: {},
        status: "succeeded",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, r)),
        finishedAt: new Date(Date.UTC(2026, 0, 1, 1, r)),
      },
    });
    const trajectories = Array.from({ length: episodes }, (_, e) => ({
      id: `${run.id}-e${e}`,
      taskId: "bench:flagged",
      domain: "shop",
      source: "synthetic",
      purpose: "train",
      policy: "linear",
      runId: run.id,
      iteration: e % 10,
      group: e,
      length: steps,
    }));
    const rows = trajectories.flatMap((t, e) =>
      Array.from({ length: steps }, (_, i) => {
        const isFlagged = (e * steps + i) % 50 === 7;
        if (isFlagged) flagged++;
        return {
          trajectoryId: t.id,
          index: i,
          state: page(i, e % 2),
          action: `click[b00${1000 + ((i * 7) % 97)}]`,
          // Every third prediction departs from the real page.
          nextState: page(i + 1, i % 3 === 0 ? 1 : 0),
          reward: i === steps - 1 ? 1 : 0,
          done: i === steps - 1,
          realNextState: page(i + 1, 0),
          realReward: 0,
          realDone: i === steps - 1,
          realValid: true,
          ...(isFlagged
            ? {
                flagged: true,
                flagCategory: "hallucinated-element",
                flagAuthor: "researcher@bench.local",
                flaggedAt: new Date(Date.UTC(2026, 0, 2, 0, 0, flagged)),
              }
            : {}),
        };
      }),
    );
    await db.$transaction(async (tx) => {
      await tx.trajectory.createMany({ data: trajectories });
      for (let i = 0; i < rows.length; i += 500) await tx.step.createMany({ data: rows.slice(i, i + 500) });
    });
  }
}

/** One load of the flagged page's data, as its queries are made (in parallel, as the browser asks). */
async function loadList(db: Db, fidelity: (runId: string) => Promise<unknown>): Promise<number> {
  const caller = createCaller(signedIn(db, "researcher"));
  const started = performance.now();
  const runs = await caller.trajectories.runOptions();
  await Promise.all([
    caller.trajectories.facets(),
    caller.steps.flagged({ page: 0, pageSize: 50 }),
    ...runs.slice(0, RUNS_SHOWN).map((r) => fidelity(r.id)),
  ]);
  return performance.now() - started;
}

export async function flaggedListBench(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: "string", default: "20" },
      episodes: { type: "string", default: "100" },
      steps: { type: "string", default: "10" },
      repeats: { type: "string", default: "5" },
    },
  });
  const runs = Number(values.runs);
  const episodes = Number(values.episodes);
  const steps = Number(values.steps);
  const repeats = Number(values.repeats);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-flagged-bench-"));
  const url = `file:${path.join(dir, "bench.db")}`;
  try {
    await migrateDeploy(url);
    const db = await createDb(url);
    const seeding = performance.now();
    await seed(db, runs, episodes, steps);
    const seededMs = performance.now() - seeding;
    const caller = createCaller(signedIn(db, "researcher"));
    const stored = (runId: string) => caller.steps.fidelity({ runId });
    const recompute = (runId: string) => runFidelity(db, runId);
    const recomputed: number[] = [];
    for (let i = 0; i < repeats; i++) recomputed.push(await loadList(db, recompute));
    // The first load measures and stores the shown runs' fidelity; every load after reads it.
    const firstLoad = await loadList(db, stored);
    const storedLoads: number[] = [];
    for (let i = 0; i < repeats; i++) storedLoads.push(await loadList(db, stored));
    const withFidelity = await db.run.count({ where: { fidelity: { not: { equals: null } } } });
    await db.$disconnect();
    const result = {
      bench: "flagged-list",
      runs,
      syntheticSteps: runs * episodes * steps,
      flaggedSteps: Math.ceil((runs * episodes * steps) / 50),
      fidelityShownFor: RUNS_SHOWN,
      seededSeconds: round(seededMs / 1000),
      loadMs: round(median(storedLoads)),
      firstLoadMs: round(firstLoad),
      recomputedLoadMs: round(median(recomputed)),
      runsWithStoredFidelity: withFidelity,
      targetMs: TARGET_MS,
      underTarget: median(storedLoads) < TARGET_MS,
    };
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, "bench", "results", "flagged-list.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    process.stdout.write(
      `flagged list, ${runs} finished runs (${result.syntheticSteps} synthetic steps): ${result.loadMs} ms with stored fidelity, ${result.firstLoadMs} ms on the first load (stores it), ${result.recomputedLoadMs} ms recomputing it\n`,
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
