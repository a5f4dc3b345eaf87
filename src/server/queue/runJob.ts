import type { Db } from "../db";

/** What the job behind a starting run is doing, for the run page while no iteration has finished. */
export interface RunJobStatus {
  status: string;
  /** The worker's last word ("loading the domain…", "iteration 2"); null before a worker took it. */
  message: string | null;
  /** Jobs queued before it that a worker will take first (queued jobs only). */
  ahead: number;
  heartbeatAt: Date | null;
  startedAt: Date | null;
  /** Failed attempts so far, and the last one's error, when the queue will try again. */
  attempts: number;
  error: string | null;
  runAt: Date;
}

/** The newest train job of a run that has not finished, or null (a finished run, an external run). */
export async function runJobStatus(db: Db, runId: string, now = new Date()): Promise<RunJobStatus | null> {
  // Few train jobs are open at once, so their payloads are read here rather than by a JSON path per dialect.
  const open = await db.job.findMany({
    where: { type: "train", status: { in: ["queued", "running"] } },
    orderBy: { createdAt: "desc" },
    take: 500,
  });
  const job = open.find((j) => (j.payload as { runId?: unknown } | null)?.runId === runId);
  if (!job) return null;
  const ahead =
    job.status === "queued"
      ? await db.job.count({
          where: {
            status: "queued",
            runAt: { lte: now },
            createdAt: { lt: job.createdAt },
            id: { not: job.id },
          },
        })
      : 0;
  return {
    status: job.status,
    message: job.message,
    ahead,
    heartbeatAt: job.heartbeatAt,
    startedAt: job.startedAt,
    attempts: job.attempts,
    error: job.error,
    runAt: job.runAt,
  };
}
