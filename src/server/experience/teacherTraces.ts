import type { ExperienceSettings, Teacher } from "@/core/experience/types";
import type { ReplayBuffer } from "@/core/replay/buffer";
import type { Db } from "../db";
import type { Fence } from "../queue/fence";
import { nextOf, stepInput, TRAJECTORY_WITH_STEPS } from "./stepContext";

export interface TeacherTraceOptions {
  domain?: string;
  /** Stop after writing this many traces. */
  limit: number;
  settings: ExperienceSettings;
}

export interface TeacherTraceSummary {
  teacher: string;
  written: number;
  failed: number;
  /** The first few failures, for the job's error view. */
  failures: string[];
  seconds: number;
}

/**
 * Has a teacher write the reasoning of offline transitions that have no trace from it yet, and queues each trace
 * for review as a pending annotation. One trajectory is written at a time, so a stopped job keeps what it wrote
 * and the next run continues where it stopped. A reply that cannot be used is counted, never stored.
 */
export async function writeTeacherTraces(
  db: Db,
  buffer: ReplayBuffer | undefined,
  teacher: Teacher,
  options: TeacherTraceOptions,
  hooks: {
    onProgress?: (done: number, total: number) => void;
    signal?: AbortSignal;
    /** The job's fencing check: a worker that lost the job writes no trace after another worker took it. */
    fence?: Fence;
    /**
     * The teacher job writing: its traces carry its id, and what it wrote before a crash counts towards the limit,
     * so a resumed job writes the rest, not the limit again.
     */
    jobId?: string;
  } = {},
): Promise<TeacherTraceSummary> {
  const started = performance.now();
  const summary: TeacherTraceSummary = {
    teacher: teacher.name,
    written: 0,
    failed: 0,
    failures: [],
    seconds: 0,
  };
  if (hooks.jobId) summary.written = await db.annotation.count({ where: { jobId: hooks.jobId } });
  const untraced = { annotations: { none: { teacher: teacher.name } } };
  const where = {
    source: "offline",
    ...(options.domain ? { domain: options.domain } : {}),
    steps: { some: untraced },
  };
  let cursor: string | undefined;
  while (summary.written < options.limit) {
    const batch = await db.trajectory.findMany({
      where,
      orderBy: { id: "asc" },
      take: 20,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      ...TRAJECTORY_WITH_STEPS,
    });
    if (batch.length === 0) break;
    cursor = batch[batch.length - 1]!.id;
    for (const trajectory of batch) {
      const done = new Set(
        (
          await db.annotation.findMany({
            where: { teacher: teacher.name, step: { trajectoryId: trajectory.id } },
            select: { stepId: true },
          })
        ).map((a) => a.stepId),
      );
      const rows: { stepId: string; teacher: string; teacherText: string; jobId: string | null }[] = [];
      for (const [position, step] of trajectory.steps.entries()) {
        if (done.has(step.id) || summary.written + rows.length >= options.limit) continue;
        if (hooks.signal?.aborted) throw hooks.signal.reason;
        const input = await stepInput(trajectory, position, buffer, options.settings);
        try {
          const trace = await teacher.explain(
            input,
            {
              next: nextOf(step),
              reward: step.reward,
              done: step.done,
              success: step.success,
              valid: step.valid,
            },
            hooks.signal ? { signal: hooks.signal } : {},
          );
          rows.push({
            stepId: step.id,
            teacher: teacher.name,
            teacherText: trace.reasoning,
            jobId: hooks.jobId ?? null,
          });
        } catch (error) {
          if (hooks.signal?.aborted) throw error;
          summary.failed++;
          if (summary.failures.length < 5)
            summary.failures.push(`step ${step.id}: ${(error as Error).message}`);
          if (summary.failed > 20 && summary.written === 0)
            throw new Error(`the teacher failed on every step so far: ${summary.failures.join("; ")}`);
        }
      }
      if (rows.length)
        await db.$transaction(async (tx) => {
          await hooks.fence?.(tx);
          await tx.annotation.createMany({ data: rows });
        });
      summary.written += rows.length;
      hooks.onProgress?.(summary.written, options.limit);
      if (summary.written >= options.limit) break;
    }
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
