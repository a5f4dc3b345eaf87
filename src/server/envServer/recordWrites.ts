/**
 * The recorder's writes (recorder.ts) as data, and how they reach the database: in one transaction per batch, in
 * order. A writer runs them inline or on a thread of its own (writerThread.ts), so that the server's event loop,
 * which answers every session, never waits on SQLite's write lock while a worker holds it.
 */
import type { Task } from "@/core/types";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";
import { takeWriteLock } from "../retention/transaction";
import { insertSteps, type StepRow } from "../trajectories/insertSteps";
import { taskRow } from "../trajectories/saveEpisodes";
import { TX_LIMITS } from "./externalRuns";
import { refreshRunFigures } from "./runFigures";

export interface EpisodeStart {
  trajectoryId: string;
  episodeId: string;
  runId: string;
  task: Task;
  source: "real" | "synthetic";
  iteration: number;
  group: number | null;
  /** "eval" for an evaluation episode (it may play test tasks): kept out of the run's training figures. */
  purpose: "train" | "eval";
  policy: string;
}

export interface EpisodeEnd {
  status: "done" | "abandoned";
  totalReward: number;
  success: boolean;
  /** The steps the episode took; the stored length is counted from the stored steps (writeBatch). */
  length: number;
  agentTokens: number | null;
}

export type Write =
  | { kind: "start"; episode: EpisodeStart }
  | { kind: "step"; row: StepRow }
  | { kind: "end"; trajectoryId: string; runId: string; iteration: number; end: EpisodeEnd };

export interface RecordWriter {
  write(batch: readonly Write[]): Promise<void>;
  refreshFigures(runId: string, versions: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

export function inlineWriter(db: Db): RecordWriter {
  return {
    write: (batch) => writeBatch(db, batch),
    refreshFigures: (runId, versions) => refreshRunFigures(db, runId, versions),
    close: async () => {},
  };
}

export async function writeBatch(db: Db, batch: readonly Write[]): Promise<void> {
  const starts = batch.flatMap((w) => (w.kind === "start" ? [w.episode] : []));
  const steps = batch.flatMap((w) => (w.kind === "step" ? [w.row] : []));
  const ends = batch.flatMap((w) => (w.kind === "end" ? [w] : []));
  await db.$transaction(async (tx) => {
    // The write lock first: a deferred transaction that read before another connection wrote cannot write.
    await takeWriteLock(tx);
    if (starts.length > 0) {
      const tasks = new Map(starts.map((s) => [s.task.id, s.task]));
      const known = new Set(
        (await tx.task.findMany({ where: { id: { in: [...tasks.keys()] } }, select: { id: true } })).map(
          (t) => t.id,
        ),
      );
      const missing = [...tasks.values()].filter((t) => !known.has(t.id));
      if (missing.length > 0)
        await tx.task.createMany({
          data: missing.map((t) => taskRow(t)),
        });
      await tx.trajectory.createMany({
        data: starts.map((s) => ({
          id: s.trajectoryId,
          episodeId: s.episodeId,
          status: "live",
          taskId: s.task.id,
          domain: s.task.domain,
          source: s.source,
          purpose: s.purpose,
          policy: s.policy,
          runId: s.runId,
          iteration: s.iteration,
          group: s.group,
        })),
      });
    }
    if (steps.length > 0) await insertSteps(tx, steps);
    for (const { trajectoryId, end } of ends)
      await tx.trajectory.update({
        where: { id: trajectoryId },
        data: {
          status: end.status,
          totalReward: end.totalReward,
          success: end.success,
          agentTokens: end.agentTokens,
        },
      });
    // A trajectory's length is its stored steps, counted in the transaction that stores them: a step that lands
    // after its episode's end (a client that left mid-step) is counted too, and nothing counts a step not stored.
    const touched = [...new Set([...steps.map((s) => s.trajectoryId), ...ends.map((e) => e.trajectoryId)])];
    if (touched.length > 0)
      await tx.$executeRaw`
        UPDATE "Trajectory" SET "length" =
          (SELECT COUNT(*) FROM "Step" s WHERE s."trajectoryId" = "Trajectory"."id")
         WHERE "id" IN (${Prisma.join(touched)})`;
  }, TX_LIMITS);
}
