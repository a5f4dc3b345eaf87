import { parseRunConfig } from "@/core/train/config";
import { type CollectOptions, collectOffline } from "../collect/collectOffline";
import type { Db } from "../db";
import { enqueue } from "../queue/queue";
import { createRun } from "../train/runStore";
import { importTrajectoriesFile } from "../trajectories/importTrajectories";
import { SAMPLE_FILE, WEB_ADMIN_SAMPLE_FILE } from "./sampleFile";

/** A few hundred episodes per built-in domain, the way the paper's offline data mixes expert and noisy play. */
export const DEMO_COLLECTIONS: CollectOptions[] = [
  { domain: "shop", policy: "expert", episodes: 150, split: "train", epsilon: 0, seed: 1, offset: 0 },
  { domain: "shop", policy: "noisy", episodes: 100, split: "train", epsilon: 0.3, seed: 2, offset: 150 },
  { domain: "shop", policy: "random", episodes: 50, split: "train", epsilon: 1, seed: 3, offset: 250 },
  { domain: "household", policy: "expert", episodes: 150, split: "train", epsilon: 0, seed: 1, offset: 0 },
  { domain: "household", policy: "noisy", episodes: 100, split: "train", epsilon: 0.3, seed: 2, offset: 150 },
  { domain: "household", policy: "random", episodes: 50, split: "train", epsilon: 1, seed: 3, offset: 250 },
  { domain: "office", policy: "expert", episodes: 150, split: "train", epsilon: 0, seed: 1, offset: 0 },
  { domain: "office", policy: "noisy", episodes: 100, split: "train", epsilon: 0.3, seed: 2, offset: 150 },
  { domain: "office", policy: "random", episodes: 50, split: "train", epsilon: 1, seed: 3, offset: 250 },
];

/**
 * A short DreamGym run, so a first visit has synthetic episodes (with the real environment's answers beside the
 * predictions), curves and a curriculum heatmap to look at. The worker runs it in the background.
 */
export const DEMO_RUN = {
  name: "demo: shop DreamGym GRPO",
  method: "dreamgym",
  domain: "shop",
  algorithm: "grpo",
  iterations: 4,
  tasksPerBatch: 6,
  groupSize: 4,
  evaluation: { interval: 2, episodes: 20 },
} as const;

/** Teacher traces awaiting review, so the annotation queue has work on a first visit. */
export const DEMO_TEACHER = { backend: "embedded", domain: "shop", limit: 40, k: 4 } as const;

/** Seeds demo data into an empty database; does nothing when any trajectory exists. */
export async function seedDemoIfEmpty(db: Db, log: (line: string) => void = () => {}): Promise<boolean> {
  if ((await db.trajectory.count()) > 0) return false;
  const imported = await importTrajectoriesFile(db, SAMPLE_FILE, "samples/web-navigation.jsonl");
  log(`demo: imported ${imported.imported} web-navigation trajectories`);
  // About 0.4 s more on a first start (README "Importing trajectories"); the worker indexes its steps afterwards.
  const admin = await importTrajectoriesFile(db, WEB_ADMIN_SAMPLE_FILE, "samples/web-admin.jsonl");
  log(`demo: imported ${admin.imported} web-admin trajectories (${admin.steps} steps)`);
  for (const options of DEMO_COLLECTIONS) {
    const summary = await collectOffline(db, options);
    log(
      `demo: ${summary.domain} ${summary.policy}: ${summary.episodes} episodes, ${summary.transitions} transitions, success ${(summary.successRate * 100).toFixed(0)}%`,
    );
  }
  await enqueue(db, "teacher", { ...DEMO_TEACHER });
  const { runId } = await createRun(db, parseRunConfig(DEMO_RUN, "demo run"));
  log(`demo: queued teacher traces and demo run ${runId} for the worker`);
  return true;
}
