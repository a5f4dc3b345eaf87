import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { RealDomain } from "@/core/envs/domain";
import { realAnswers } from "@/core/experience/realCheck";
import type { RunConfig } from "@/core/train/config";
import { environmentBreaks } from "@/core/train/evaluate";
import { LearnerState } from "@/core/train/learner";
import { runProgress, trainedWith } from "@/core/train/methods";
import type { IterationReport, RunState } from "@/core/train/run";
import { bulkInsert, bulkTransaction } from "../bulkInsert";
import type { Db } from "../db";
import type { Fence } from "../queue/fence";
import { enqueueWith } from "../queue/queue";
import { type EpisodeRows, ensureTasks, episodeRows, insertEpisodeRows } from "../trajectories/saveEpisodes";
import { runTrustData } from "../trust/runTrust";

/** A run row and the job that runs it, written together; the web calls this, the worker does the work. */
export async function createRun(db: Db, config: RunConfig): Promise<{ runId: string; jobId: string }> {
  const { row, job } = await enqueueWith(db, "train", async (tx) => {
    const run = await tx.run.create({
      data: {
        name: config.name || `${config.domain} ${config.method} ${config.algorithm}`,
        method: config.method,
        domain: config.domain,
        algorithm: trainedWith(config),
        config: config as object,
      },
    });
    return { row: run, payload: { runId: run.id } };
  });
  return { runId: row.id, jobId: job.id };
}

const StoredRunState = z.object({
  iterations: z.number().int().min(0),
  realTransitions: z.number().int().min(0),
  syntheticTransitions: z.number().int().min(0),
  policy: z.unknown(),
  values: z.unknown(),
  generated: z.array(z.object({ id: z.string() }).passthrough()),
  learner: LearnerState.optional(),
});

/** The state of the last finished iteration, or undefined for a run that has not finished one. */
export async function loadRunState(db: Db, runId: string): Promise<RunState | undefined> {
  const checkpoint = await db.checkpoint.findFirst({ where: { runId }, orderBy: { iteration: "desc" } });
  if (!checkpoint) return undefined;
  const parsed = StoredRunState.safeParse(checkpoint.state);
  if (!parsed.success)
    throw new Error(
      `checkpoint of run ${runId} at iteration ${checkpoint.iteration} is unreadable: ${parsed.error.message}`,
    );
  return parsed.data as unknown as RunState;
}

/** Where a run resumes: its last checkpoint's iteration and transition counters (all 0 without one). */
export type ResumePoint = Pick<RunState, "iterations" | "realTransitions" | "syntheticTransitions">;

/**
 * Removes what a crashed iteration wrote after the last checkpoint (its trajectories, metrics and task statistics)
 * and sets the run's counters back to the checkpoint's, in one transaction, so that resuming from the checkpoint
 * duplicates nothing and the run never counts rows it no longer stores (a job that fails for good right after
 * keeps counters that agree with its rows). Returns the ids of the removed steps, for the caller to remove from
 * the replay buffer too (any of them may be there).
 */
export async function discardAfter(
  db: Db,
  runId: string,
  from: ResumePoint,
  fence?: Fence,
): Promise<string[]> {
  const after = { runId, iteration: { gt: from.iterations } };
  return db.$transaction(async (tx) => {
    await fence?.(tx);
    // Every removed step, not only those marked indexed: a worker killed between its LanceDB write and the mark
    // leaves rows in LanceDB for steps the database still calls pending.
    const removed = await tx.step.findMany({ where: { trajectory: after }, select: { id: true } });
    await tx.trajectory.deleteMany({ where: after });
    await tx.runMetric.deleteMany({ where: after });
    await tx.taskStat.deleteMany({ where: after });
    await tx.run.update({
      where: { id: runId },
      data: {
        iteration: from.iterations,
        realTransitions: from.realTransitions,
        syntheticTransitions: from.syntheticTransitions,
      },
    });
    return removed.map((s) => s.id);
  });
}

/**
 * Records one finished iteration: its tasks and new variations, then in one transaction the rollouts (synthetic
 * ones beside the real environment's answer), the metrics, the per-task reward statistics, the checkpoint (only
 * the latest is kept) and the run's progress, which it returns. An iteration is stored whole or not at all.
 */
export async function recordIteration(
  db: Db,
  runId: string,
  config: RunConfig,
  domain: RealDomain | undefined,
  report: IterationReport,
  /** The train job's fencing check: nothing is written once another worker holds the job. */
  fence?: Fence,
): Promise<number> {
  return commitIteration(db, runId, config, await prepareIteration(runId, domain, report), fence);
}

/** An iteration's rows, built before its transaction (recordIteration's first half, which writes nothing). */
export interface PreparedIteration {
  report: IterationReport;
  rows: EpisodeRows;
}

export async function prepareIteration(
  runId: string,
  /** Answers synthetic steps beside the experience model's prediction; none for an imported domain. */
  domain: RealDomain | undefined,
  report: IterationReport,
): Promise<PreparedIteration> {
  const real =
    report.phase === "synthetic" && domain
      ? await Promise.all(
          report.episodes.map((e) =>
            realAnswers(
              domain,
              e.task,
              e.steps.map((s) => s.action),
            ),
          ),
        )
      : undefined;
  const rows = episodeRows(
    report.episodes,
    {
      source: report.phase,
      policy: `linear@it${report.iteration - 1}`,
      purpose: "train",
      runId,
      iteration: report.iteration,
    },
    real,
  );
  return { report, rows };
}

/** recordIteration's second half: the iteration with its tasks, in one fenced transaction. */
export async function commitIteration(
  db: Db,
  runId: string,
  config: RunConfig,
  { report, rows }: PreparedIteration,
  fence?: Fence,
  /** Whether this iteration's state becomes the run's checkpoint (the writer thread spaces them out). */
  checkpoint = true,
): Promise<number> {
  // Below 1 until the job has finished its final evaluation.
  const progress = Math.min(
    0.99,
    runProgress(config, {
      iterations: report.iteration,
      realTransitions: report.realTransitions,
      syntheticTransitions: report.syntheticTransitions,
    }),
  );
  await bulkTransaction(db, async (tx) => {
    await fence?.(tx);
    await ensureTasks(
      tx,
      report.episodes.map((e) => e.task),
      runId,
    );
    // New variations after: their parents were in this batch.
    await ensureTasks(tx, report.generated, runId);
    await insertEpisodeRows(tx, rows);
    await tx.runMetric.upsert({
      where: { runId_iteration: { runId, iteration: report.iteration } },
      create: metricRow(runId, report),
      update: metricRow(runId, report),
    });
    await tx.taskStat.createMany({
      data: report.taskStats.map((s) => ({
        runId,
        iteration: report.iteration,
        taskId: s.taskId,
        count: s.count,
        meanReward: s.meanReward,
        variance: s.variance,
        successRate: s.successRate,
      })),
    });
    if (checkpoint) {
      // Bulk: a checkpoint is megabytes of JSON (policy and optimizer), which Prisma's query compiler would copy.
      await tx.$executeRaw`DELETE FROM "Checkpoint" WHERE "runId" = ${runId}`;
      await bulkInsert(
        tx,
        "Checkpoint",
        ["id", "runId", "iteration", "state", "createdAt"],
        [[randomUUID(), runId, report.iteration, JSON.stringify(report.state), new Date()]],
      );
    }
    await tx.run.update({
      where: { id: runId },
      data: {
        iteration: report.iteration,
        progress,
        realTransitions: report.realTransitions,
        syntheticTransitions: report.syntheticTransitions,
        ...runTrustData(report.evaluation, report.iteration),
      },
    });
  });
  return progress;
}

/** Episodes a remote environment broke (each played again), when there were any. */
function breaksOf(r: IterationReport): { environmentBreaks?: number } {
  const breaks = environmentBreaks(r.episodes) + (r.evaluation?.environmentBreaks ?? 0);
  return breaks > 0 ? { environmentBreaks: breaks } : {};
}

function metricRow(runId: string, r: IterationReport) {
  // An imported domain's evaluation is synthetic (proxies): it is never stored as real success, but where the
  // same policy's synthetic test figures go, with the proxies in extra.
  const proxy = r.evaluation?.proxy ? r.evaluation : undefined;
  const real = proxy ? undefined : r.evaluation;
  const simulated = proxy ?? r.simulated;
  return {
    runId,
    iteration: r.iteration,
    syntheticSuccess: r.phase === "synthetic" ? r.rolloutSuccess : null,
    realSuccess: real?.successRate ?? null,
    realReward: real?.meanReward ?? null,
    simSuccess: simulated?.successRate ?? null,
    simReward: simulated?.meanReward ?? null,
    meanReward: r.meanReward,
    realTransitions: r.realTransitions,
    syntheticTransitions: r.syntheticTransitions,
    extra: {
      phase: r.phase,
      rolloutSuccess: r.rolloutSuccess,
      update: r.update,
      // Episodes a remote environment broke and that were played again: the environment's fault, not the policy's.
      ...breaksOf(r),
      ...(proxy ? { proxy: proxy.proxy } : { evaluationReward: r.evaluation?.meanReward ?? null }),
    } as object,
  };
}
