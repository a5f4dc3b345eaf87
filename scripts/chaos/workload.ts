import fs from "node:fs";
import path from "node:path";
import { parseRunConfig, type RunConfig } from "@/core/train/config";
import type { Db } from "@/server/db";
import { enqueue } from "@/server/queue/queue";
import { createRun } from "@/server/train/runStore";

/** How much work one wave of the chaos queue holds: enough for several kills to land inside each job type. */
export interface WaveSize {
  /** Episodes of each of the two collect jobs. */
  collectEpisodes: number;
  /** Lines of the import file. */
  importTrajectories: number;
  /** Traces the teacher job writes. */
  teacherTraces: number;
  /** Iterations of each of the two train runs (DreamGym on the shop, real-env PPO on the household). */
  iterations: number;
  tasksPerBatch: number;
  groupSize: number;
}

export const FULL_WAVE: WaveSize = {
  collectEpisodes: 300,
  importTrajectories: 400,
  teacherTraces: 400,
  iterations: 24,
  tasksPerBatch: 4,
  groupSize: 8,
};

export const SHORT_WAVE: WaveSize = {
  collectEpisodes: 120,
  importTrajectories: 150,
  teacherTraces: 150,
  iterations: 10,
  tasksPerBatch: 4,
  groupSize: 6,
};

/** What a wave must leave behind once all its jobs have succeeded, however often their workers died. */
export interface WaveExpectation {
  collectedEpisodes: number;
  importedTrajectories: number;
  importedSteps: number;
  teacherJobs: { jobId: string; traces: number }[];
  runs: { runId: string; config: RunConfig }[];
}

const IMPORT_STEPS = 4;

/** A JSONL file in the project's import format, different for every wave (so nothing is a duplicate). */
function writeImportFile(dir: string, wave: number, trajectories: number): string {
  const file = path.join(dir, "imports", `wave-${wave}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lines: string[] = [];
  for (let t = 0; t < trajectories; t++) {
    const pages = Array.from(
      { length: IMPORT_STEPS + 1 },
      (_, p) => `[Page] wave ${wave} site ${t} page ${p}`,
    );
    lines.push(
      JSON.stringify({
        domain: "chaos",
        instruction: `Find page ${IMPORT_STEPS} of site ${t} (wave ${wave})`,
        task_id: `chaos:w${wave}:t${t}`,
        source: "offline",
        policy: "human",
        steps: Array.from({ length: IMPORT_STEPS }, (_, s) => ({
          state: pages[s],
          admissible_actions: ["click[next]", "click[back]"],
          action: "click[next]",
          next_state: pages[s + 1],
          reward: s === IMPORT_STEPS - 1 ? 1 : 0,
          done: s === IMPORT_STEPS - 1,
        })),
      }),
    );
  }
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * Queues one wave: an import, two collections, teacher traces and two training runs, in an order that makes the
 * two workers run different job types side by side. Offsets and seeds differ per wave, so every wave adds data.
 */
export async function enqueueWave(
  db: Db,
  dir: string,
  wave: number,
  size: WaveSize,
): Promise<WaveExpectation> {
  const file = writeImportFile(dir, wave, size.importTrajectories);
  const runConfig = (domain: "shop" | "household", method: "dreamgym" | "real", algorithm: "grpo" | "ppo") =>
    parseRunConfig({
      name: `chaos wave ${wave}: ${domain} ${method} ${algorithm}`,
      method,
      domain,
      algorithm,
      seed: wave,
      iterations: size.iterations,
      tasksPerBatch: size.tasksPerBatch,
      groupSize: size.groupSize,
      seedTasks: 20,
      evaluation: { interval: Math.max(1, Math.floor(size.iterations / 2)), episodes: 10 },
      // Iterations alone end the real-env run, so the count of its rollouts is known in advance.
      realTransitions: 10_000_000,
    });
  const shop = runConfig("shop", "dreamgym", "grpo");
  const household = runConfig("household", "real", "ppo");

  const shopRun = await createRun(db, shop);
  await enqueue(db, "import", { path: file, name: `chaos-wave-${wave}.jsonl` });
  const collect = { episodes: size.collectEpisodes, split: "train", epsilon: 0.3, seed: 100 + wave } as const;
  await enqueue(db, "collect", {
    ...collect,
    domain: "shop",
    policy: "noisy",
    offset: wave * size.collectEpisodes,
  });
  const teacher = await enqueue(db, "teacher", {
    domain: "shop",
    limit: size.teacherTraces,
    backend: "embedded",
    k: 2,
  });
  const householdRun = await createRun(db, household);
  await enqueue(db, "collect", {
    ...collect,
    domain: "household",
    policy: "noisy",
    offset: wave * size.collectEpisodes,
  });
  return {
    collectedEpisodes: 2 * size.collectEpisodes,
    importedTrajectories: size.importTrajectories,
    importedSteps: size.importTrajectories * IMPORT_STEPS,
    teacherJobs: [{ jobId: teacher.id, traces: size.teacherTraces }],
    runs: [
      { runId: shopRun.runId, config: shop },
      { runId: householdRun.runId, config: household },
    ],
  };
}
