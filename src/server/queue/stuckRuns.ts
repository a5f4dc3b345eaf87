import type { Db } from "../db";

/**
 * Runs that say queued or running while none of their train jobs is queued or running: nothing will ever run them.
 * The queue keeps a run and its job in step (a job failed for good fails its run in the same transaction, a job
 * that waits out a fault queues its run), so this finds what an older version, or a write lost with its process,
 * left behind.
 */
export async function stuckRuns(db: Db): Promise<{ id: string; status: string; createdAt: Date }[]> {
  const waiting = await db.run.findMany({
    where: { status: { in: ["queued", "running"] }, kind: "worker" },
    select: { id: true, status: true, createdAt: true },
    orderBy: { id: "asc" },
  });
  if (waiting.length === 0) return [];
  const active = new Set(
    (
      await db.job.findMany({
        where: { type: "train", status: { in: ["queued", "running"] } },
        select: { payload: true },
      })
    )
      .map((j) => (j.payload as { runId?: unknown } | null)?.runId)
      .filter((id): id is string => typeof id === "string"),
  );
  return waiting.filter((r) => !active.has(r.id));
}

/** How long a run may wait without a job before it is failed: longer than creating a run and its job takes. */
export const STUCK_GRACE_MS = 60_000;

/**
 * Fails stuck runs, with an error that says what happened and how to go on, so that none stays queued or running
 * forever: a failed run can be resumed. Runs whose job changed in the last `graceMs` are left alone (a run being
 * created or resumed has its job a moment later). Returns how many it failed.
 */
export async function failStuckRuns(db: Db, graceMs = STUCK_GRACE_MS): Promise<number> {
  const stuck = await stuckRuns(db);
  if (stuck.length === 0) return 0;
  const since = new Date(Date.now() - graceMs);
  // The train jobs once, not per stuck run: their payload is JSON, so the match on runId is made here.
  const jobs = await db.job.findMany({
    where: { type: "train" },
    select: { payload: true, status: true, error: true, updatedAt: true },
    orderBy: { updatedAt: "desc" },
  });
  let failed = 0;
  for (const run of stuck) {
    const latest = jobs.find((j) => (j.payload as { runId?: unknown } | null)?.runId === run.id);
    if ((latest ? latest.updatedAt : run.createdAt) > since) continue;
    const error = latest
      ? `its train job ${latest.status}${latest.error ? ` (${latest.error})` : ""} but the run was left ${run.status}; resume it to go on`
      : `it has no train job, so nothing would ever run it; resume it to go on`;
    const now = new Date();
    failed += await db.$executeRaw`
      UPDATE "Run" SET status = 'failed', error = ${error}, "finishedAt" = ${now}
      WHERE id = ${run.id} AND status = ${run.status}`;
  }
  return failed;
}
