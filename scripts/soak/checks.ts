import type { Db } from "@/server/db";
import { rolloutsPerIteration } from "./load";
import type { SoakState } from "./soak";

export interface StoreCheck {
  /** Each a sentence naming what is lost, doubled, stuck or miscounted, and where. Empty is the pass. */
  problems: string[];
  runsSucceeded: number;
  traces: number;
}

const SHOW = 6;

function some(items: string[]): string {
  return `${items.slice(0, SHOW).join("; ")}${items.length > SHOW ? `; and ${items.length - SHOW} more` : ""}`;
}

/**
 * What the soak asked for against what is stored, once every job has settled: nothing lost (every run not deleted
 * finished with every iteration's rollouts, every import and teacher job whole, every environment-server episode
 * stored), nothing twice, nothing stuck, deletions complete, and every job's crashes the kills that hit it.
 */
export async function checkStores(db: Db, state: SoakState): Promise<StoreCheck> {
  const problems: string[] = [];

  // Jobs: all succeeded, and each counts as crashes exactly the kill -9s that hit its worker while it held the job
  // (a lease lost while the worker was alive, paused or waiting on the database, is a lapse, not a crash).
  const jobs = await db.job.findMany({
    select: { id: true, type: true, status: true, error: true, crashes: true, lapses: true },
  });
  for (const job of jobs)
    if (job.status !== "succeeded")
      problems.push(`${job.type} job ${job.id} ended ${job.status}: ${job.error ?? "(no error)"}`);
  const miscounted: string[] = [];
  const storedJobs = new Set(jobs.map((j) => j.id));
  for (const job of state.jobs.values()) {
    // A deleted run's train job went with it: a worker paused past its lease that wakes after the deletion has no
    // job left to record its lapse on, so the last count seen is not the job's whole story.
    if (!storedJobs.has(job.id)) continue;
    const kills = state.killsOf.get(job.id) ?? 0;
    if (job.crashes !== kills)
      miscounted.push(
        `${job.type} job ${job.id}: ${job.crashes} crashes counted, ${kills} kill -9s of its worker (${job.lapses} lapses)`,
      );
  }
  if (miscounted.length)
    problems.push(`${miscounted.length} jobs count other crashes than the kills: ${some(miscounted)}`);

  // Runs: every one not deleted finished with all its iterations' rollouts; deleted ones are gone entirely.
  let runsSucceeded = 0;
  const lost: string[] = [];
  for (const run of state.runs) {
    if (run.deleted) {
      const left = await db.trajectory.count({ where: { runId: run.runId } });
      const row = await db.run.findUnique({ where: { id: run.runId }, select: { id: true } });
      if (row || left)
        problems.push(
          `run ${run.index} (${run.runId}) was deleted but ${row ? "its row" : ""}${row && left ? " and " : ""}${left ? `${left} trajectories` : ""} remain`,
        );
      continue;
    }
    const row = await db.run.findUnique({ where: { id: run.runId } });
    if (!row) {
      lost.push(`run ${run.index} (${run.runId}) is gone, though never deleted`);
      continue;
    }
    if (row.status === "succeeded") runsSucceeded++;
    else lost.push(`run ${run.index} (${run.runId}) ended ${row.status}: ${row.error ?? "(no error)"}`);
    if (row.iteration !== run.config.iterations)
      lost.push(
        `run ${run.index} (${run.runId}) finished ${row.iteration}/${run.config.iterations} iterations`,
      );
    const stored = await db.trajectory.groupBy({
      by: ["iteration"],
      where: { runId: run.runId, purpose: "train" },
      _count: { _all: true },
    });
    const wanted = rolloutsPerIteration(run.config);
    for (let it = 1; it <= run.config.iterations; it++) {
      const n = stored.find((s) => s.iteration === it)?._count._all ?? 0;
      if (n !== wanted)
        lost.push(
          `run ${run.index} (${run.runId}, ${run.config.name}) iteration ${it}: ${n} of ${wanted} rollouts stored`,
        );
    }
  }
  if (lost.length) problems.push(`${lost.length} runs lost work: ${some(lost)}`);

  // No run waits for a job that will never come (the soak's and any other: a run whose creation failed halfway).
  const waiting = await db.run.findMany({
    where: { status: { in: ["queued", "running"] }, kind: "worker" },
    select: { id: true, name: true, status: true },
  });
  if (waiting.length)
    problems.push(
      `${waiting.length} runs are stuck ${waiting.map((r) => r.status).join("/")} with every job settled: ${some(waiting.map((r) => `${r.name} (${r.id})`))}`,
    );
  const known = new Set(state.runs.map((r) => r.runId));
  const strays = await db.run.findMany({
    where: { kind: "worker", id: { notIn: [...known] } },
    select: { id: true, name: true, status: true },
  });
  if (strays.length)
    problems.push(
      `${strays.length} runs exist that the soak never created (a failed creation left them): ${some(strays.map((r) => `${r.name} (${r.id}, ${r.status})`))}`,
    );

  // Imports: each one kept holds exactly its trajectories and steps; each deleted one holds none.
  for (const imp of state.imports) {
    const trajectories = await db.trajectory.count({ where: { importName: imp.file.name } });
    const steps = await db.step.count({ where: { trajectory: { importName: imp.file.name } } });
    const want = imp.deleted ? { trajectories: 0, steps: 0 } : imp.file;
    if (trajectories !== want.trajectories || steps !== want.steps)
      problems.push(
        `import ${imp.file.name}${imp.deleted ? " (deleted)" : ""}: ${trajectories} trajectories and ${steps} steps stored, ${want.trajectories} and ${want.steps} expected`,
      );
  }

  // Teacher jobs: each wrote its traces, once.
  let traces = 0;
  for (const t of state.teachers) {
    const n = await db.annotation.count({ where: { jobId: t.jobId } });
    traces += n;
    if (n !== t.limit)
      problems.push(`teacher job ${t.jobId} (${t.domain}): ${n} traces stored, ${t.limit} asked`);
  }

  // Environment-server episodes: each one played to its end is stored with every step it took.
  const episodes = state.episodes.filter((e) => e.done);
  const stored = new Map<string, number>();
  for (let i = 0; i < episodes.length; i += 500) {
    const ids = episodes.slice(i, i + 500).map((e) => e.trajectoryId);
    const rows = await db.trajectory.findMany({
      where: { id: { in: ids } },
      select: { id: true, _count: { select: { steps: true } } },
    });
    for (const r of rows) stored.set(r.id, r._count.steps);
  }
  const missing = episodes.filter((e) => stored.get(e.trajectoryId) !== e.steps);
  if (missing.length)
    problems.push(
      `${missing.length} of ${episodes.length} environment-server episodes are not stored whole: ${some(missing.map((e) => `${e.domain} ${e.mode} ${e.trajectoryId}: ${stored.get(e.trajectoryId) ?? "no trajectory"} of ${e.steps} steps`))}`,
    );

  return { problems, runsSucceeded, traces };
}
