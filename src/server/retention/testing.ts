import type { Db } from "../db";
import { importTrajectoriesText } from "../trajectories/importTrajectories";
import type { RunContents } from "./deleteRun";

/** Test fixtures for deletions: a run that owns one of everything a run can own, and small imports. */

export interface RunFixture {
  runId: string;
  /** What deleting it must report. */
  expected: Omit<RunContents, "runId" | "name" | "status">;
}

/** A household seed task that every fixture run trains on (so it must outlive any one run). */
export const SEED_TASK = "household:train:retention-seed";

/**
 * A run with `episodes` rollouts of `steps` steps on the seed task, one more episode on a task its curriculum
 * generated, an annotation (with its review event) on its first step, two iterations of metrics and task
 * statistics, a checkpoint and its train job, in `status`.
 */
export async function writeRun(
  db: Db,
  name: string,
  {
    status = "succeeded",
    episodes = 3,
    steps = 2,
  }: { status?: string; episodes?: number; steps?: number } = {},
): Promise<RunFixture> {
  await db.task.upsert({
    where: { id: SEED_TASK },
    create: { id: SEED_TASK, domain: "household", instruction: "put a clean mug in the cabinet" },
    update: {},
  });
  const run = await db.run.create({
    data: { name, method: "dreamgym", domain: "household", algorithm: "grpo", config: {}, status },
  });
  const generated = `${SEED_TASK}~${run.id}`;
  await db.task.create({
    data: {
      id: generated,
      domain: "household",
      instruction: `put a clean cup in the cabinet (${name})`,
      origin: "generated",
      parentId: SEED_TASK,
      generation: 1,
      runId: run.id,
    },
  });
  const taskIds = [...Array.from({ length: episodes }, () => SEED_TASK), generated];
  for (const [e, taskId] of taskIds.entries()) {
    await db.trajectory.create({
      data: {
        taskId,
        domain: "household",
        source: "synthetic",
        purpose: "train",
        runId: run.id,
        iteration: 1 + (e % 2),
        group: e,
        length: steps,
        steps: {
          create: Array.from({ length: steps }, (_, index) => ({
            index,
            state: `${name}: episode ${e}, you are in the middle of a room (step ${index})`,
            action: `go to cabinet ${index + 1}`,
            nextState: `You arrive at cabinet ${index + 1}. (${name} ${e})`,
            reward: index === steps - 1 ? 1 : 0,
            done: index === steps - 1,
          })),
        },
      },
    });
  }
  const first = await db.step.findFirstOrThrow({
    where: { trajectory: { runId: run.id } },
    orderBy: { id: "asc" },
  });
  await db.annotation.create({
    data: {
      stepId: first.id,
      teacher: "retrieval-teacher-v1",
      teacherText: "The cabinet is the likeliest place.",
      status: "accepted",
      events: { create: [{ author: "ana", action: "accept" }] },
    },
  });
  for (const iteration of [1, 2]) {
    await db.runMetric.create({ data: { runId: run.id, iteration, syntheticSuccess: 0.5, meanReward: 0.5 } });
    await db.taskStat.create({
      data: {
        runId: run.id,
        iteration,
        taskId: SEED_TASK,
        count: 2,
        meanReward: 0.5,
        variance: 0.25,
        successRate: 0.5,
      },
    });
  }
  await db.checkpoint.create({ data: { runId: run.id, iteration: 2, state: { weights: [0.1, 0.2] } } });
  const jobStatus = status === "queued" || status === "running" ? status : "succeeded";
  await db.job.create({ data: { type: "train", payload: { runId: run.id }, status: jobStatus } });
  return {
    runId: run.id,
    expected: {
      trajectories: taskIds.length,
      steps: taskIds.length * steps,
      annotations: 1,
      metrics: 2,
      taskStats: 2,
      checkpoints: 1,
      generatedTasks: 1,
      sharedTasks: 0,
      jobs: 1,
    },
  };
}

/** One JSONL line of the import format: a one- or two-step web trajectory on `taskId`. */
export function importLine(taskId: string, instruction: string, steps = 2): string {
  return JSON.stringify({
    domain: "web",
    task_id: taskId,
    instruction,
    steps: Array.from({ length: steps }, (_, i) => ({
      state: `[Page] ${instruction} ${i}`,
      action: `click[Next ${i}]`,
      next_state: `[Page] ${instruction} ${i + 1}`,
      reward: i === steps - 1 ? 1 : 0,
      done: i === steps - 1,
    })),
  });
}

/** Imports lines under a name, as the CLI or the worker would. */
export function writeImport(db: Db, name: string, lines: string[]) {
  return importTrajectoriesText(db, `${lines.join("\n")}\n`, name);
}
