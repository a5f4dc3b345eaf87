import fs from "node:fs";
import type { ImportLine } from "@/core/trajectories/importFormat";
import type { Split } from "@/core/types";
import type { Db } from "../db";
import { offlineEpisodes } from "../replay/offlineEpisodes";

export interface ExportOptions {
  domain: string;
  /** File the trajectories under this domain name instead (a built-in domain's logs as an imported one). */
  as?: string;
  /** Only this split's tasks; both by default. */
  split?: Split;
}

/**
 * A domain's offline trajectories in the JSONL import format, one line per trajectory in a fixed order: what
 * `import` reads back. Filed under another name (`as`), task ids are prefixed with it, so that the copy's tasks
 * are its own and never the original's (task ids are global).
 */
export async function exportTrajectories(db: Db, options: ExportOptions): Promise<ImportLine[]> {
  const name = options.as ?? options.domain;
  const tasks = new Map(
    (
      await db.task.findMany({
        where: { domain: options.domain, ...(options.split ? { split: options.split } : {}) },
        select: { id: true, split: true, instruction: true },
      })
    ).map((t) => [t.id, t]),
  );
  const policies = new Map(
    (
      await db.trajectory.findMany({
        where: { domain: options.domain, source: "offline" },
        select: { id: true, policy: true },
      })
    ).map((t) => [t.id, t.policy]),
  );
  const episodes = await offlineEpisodes(db, options.domain, options.split ? { split: options.split } : {});
  const lines: ImportLine[] = [];
  for (const episode of episodes) {
    const task = tasks.get(episode.taskId);
    if (!task) continue;
    const policy = policies.get(episode.trajectoryId);
    lines.push({
      domain: name,
      instruction: task.instruction,
      task_id: options.as ? `${options.as}:${task.id}` : task.id,
      split: task.split as Split,
      source: "offline",
      ...(policy ? { policy } : {}),
      steps: episode.steps.map((step) => ({
        state: step.state.text,
        ...(step.state.actions ? { admissible_actions: step.state.actions } : {}),
        action: step.action,
        next_state: step.next.text,
        reward: step.reward,
        done: step.done,
        success: step.success,
        valid: step.valid,
      })),
    });
  }
  return lines;
}

/** exportTrajectories into a JSONL file; returns how many trajectories it wrote (none: no file). */
export async function exportTrajectoriesFile(db: Db, options: ExportOptions, file: string): Promise<number> {
  const lines = await exportTrajectories(db, options);
  if (lines.length === 0) throw new Error(`domain "${options.domain}" has no offline trajectories to export`);
  fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return lines.length;
}
