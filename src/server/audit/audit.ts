import type { Db } from "../db";
import { stuckRuns } from "../queue/stuckRuns";
import type { LanceReplayBuffer } from "../replay/lanceReplayBuffer";

/** What the two stores hold, counted as an operator would want to see them after a storm of crashes. */
export interface AuditCounts {
  jobs: Record<string, number>;
  runs: number;
  trajectories: number;
  steps: number;
  metrics: number;
  taskStats: number;
  annotations: number;
  checkpoints: number;
  /** Rows in LanceDB, and how many distinct step ids they hold (equal when nothing is there twice). */
  lanceRows: number;
  lanceIds: number;
  /** Steps not yet in LanceDB (pending indexing). */
  pendingSteps: number;
}

export interface AuditReport {
  counts: AuditCounts;
  /** Each a sentence naming what is lost or doubled, and where. Empty when the stores are whole and agree. */
  problems: string[];
}

const SHOW = 5;

function some(ids: string[]): string {
  return `${ids.slice(0, SHOW).join(", ")}${ids.length > SHOW ? ` and ${ids.length - SHOW} more` : ""}`;
}

/**
 * Checks that nothing a job wrote is lost or stored twice, reading only (reconcile.ts repairs what can be
 * repaired). Relations the schema cannot enforce are checked here: a trajectory holds as many steps as its length;
 * a worker run's rollout (run, iteration, task, slot in the group) is stored once (an external trainer may play
 * one task many times in one policy version); an iteration's task statistics count its rollouts; a run's transition counters, and every iteration's, match its
 * stored rollouts (a deletion that took another run's rows shows here); a finished run keeps no rollouts past its
 * last iteration; no step has two traces from one teacher; every step is in LanceDB exactly once, and LanceDB holds
 * no step that the database does not; no job failed; no run waits as queued or running without a job to run it.
 */
export async function auditStores(db: Db, store: LanceReplayBuffer): Promise<AuditReport> {
  const lance = await lanceProblems(db, store);
  const problems = [
    ...(await rowProblems(db)),
    ...(await counterProblems(db)),
    ...lance.problems,
    ...(await jobProblems(db)),
  ];
  const jobs: Record<string, number> = {};
  for (const g of await db.job.groupBy({ by: ["status"], _count: { _all: true } }))
    jobs[g.status] = g._count._all;
  return {
    counts: {
      jobs,
      runs: await db.run.count(),
      trajectories: await db.trajectory.count(),
      steps: lance.steps,
      metrics: await db.runMetric.count(),
      taskStats: await db.taskStat.count(),
      annotations: await db.annotation.count(),
      checkpoints: await db.checkpoint.count(),
      lanceRows: lance.rows,
      lanceIds: lance.ids,
      pendingSteps: await db.step.count({ where: { indexedAt: null } }),
    },
    problems,
  };
}

/** Rows stored wrong: a trajectory short of steps, a rollout twice, statistics that disagree, a trace twice. */
async function rowProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const short = await db.$queryRaw<{ id: string; length: number; steps: bigint }[]>`
    SELECT t.id, t.length, COUNT(s.id) AS steps FROM "Trajectory" t LEFT JOIN "Step" s ON s."trajectoryId" = t.id
    GROUP BY t.id, t.length HAVING COUNT(s.id) <> t.length`;
  if (short.length)
    problems.push(
      `${short.length} trajectories do not hold as many steps as their length: ${some(short.map((t) => `${t.id} (${t.steps}/${t.length})`))}`,
    );

  const rolloutsTwice = await db.$queryRaw<{ runId: string; iteration: number; taskId: string; n: bigint }[]>`
    SELECT t."runId", t.iteration, t."taskId", t."group", COUNT(*) AS n FROM "Trajectory" t
    JOIN "Run" r ON r.id = t."runId"
    WHERE t.purpose = 'train' AND r.kind = 'worker'
    GROUP BY t."runId", t.iteration, t."taskId", t."group" HAVING COUNT(*) > 1`;
  if (rolloutsTwice.length)
    problems.push(
      `${rolloutsTwice.length} rollouts stored more than once: ${some(rolloutsTwice.map((r) => `run ${r.runId} iteration ${r.iteration} task ${r.taskId} (${r.n}×)`))}`,
    );

  // Task statistics are written in the iteration's transaction, rollouts just before it: they must agree.
  const statMismatch = await db.$queryRaw<{ runId: string; iteration: number; taskId: string }[]>`
    SELECT COALESCE(s."runId", t."runId") AS "runId", COALESCE(s.iteration, t.iteration) AS iteration,
      COALESCE(s."taskId", t."taskId") AS "taskId"
    FROM "TaskStat" s
    FULL OUTER JOIN (
      SELECT "runId", iteration, "taskId", COUNT(*) AS n FROM "Trajectory"
      WHERE "runId" IS NOT NULL AND purpose = 'train' GROUP BY "runId", iteration, "taskId"
    ) t ON t."runId" = s."runId" AND t.iteration = s.iteration AND t."taskId" = s."taskId"
    WHERE s.id IS NULL OR t.n IS NULL OR t.n <> s.count`;
  if (statMismatch.length)
    problems.push(
      `${statMismatch.length} task statistics disagree with the stored rollouts: ${some(statMismatch.map((r) => `run ${r.runId} iteration ${r.iteration} task ${r.taskId}`))}`,
    );

  const tracesTwice = await db.$queryRaw<{ stepId: string; teacher: string; n: bigint }[]>`
    SELECT "stepId", teacher, COUNT(*) AS n FROM "Annotation" GROUP BY "stepId", teacher HAVING COUNT(*) > 1`;
  if (tracesTwice.length)
    problems.push(
      `${tracesTwice.length} steps have more than one trace from the same teacher: ${some(tracesTwice.map((a) => `${a.stepId} (${a.teacher}, ${a.n}×)`))}`,
    );

  return problems;
}

/** Counters that disagree with the rows they count: the run's, each iteration's, its metrics, its leftovers. */
async function counterProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const counters = await db.$queryRaw<
    {
      id: string;
      real: number;
      synthetic: number;
      storedReal: bigint | null;
      storedSynthetic: bigint | null;
    }[]
  >`
    SELECT r.id, r."realTransitions" AS real, r."syntheticTransitions" AS synthetic,
      (SELECT SUM(length) FROM "Trajectory" t WHERE t."runId" = r.id AND t.purpose = 'train'
        AND t.source = 'real' AND t.iteration <= r.iteration) AS "storedReal",
      (SELECT SUM(length) FROM "Trajectory" t WHERE t."runId" = r.id AND t.purpose = 'train'
        AND t.source = 'synthetic' AND t.iteration <= r.iteration) AS "storedSynthetic"
    FROM "Run" r`;
  const badCounters = counters.filter(
    (r) => Number(r.storedReal ?? 0) !== r.real || Number(r.storedSynthetic ?? 0) !== r.synthetic,
  );
  if (badCounters.length)
    problems.push(
      `${badCounters.length} runs count other transitions than they store: ${some(badCounters.map((r) => `${r.id} (real ${r.real} counted, ${r.storedReal ?? 0} stored; synthetic ${r.synthetic} counted, ${r.storedSynthetic ?? 0} stored)`))}`,
    );

  const drift = await iterationsThatDisagree(db);
  if (drift.length)
    problems.push(
      `${drift.length} iterations' metrics count other transitions than their run stores up to them: ${some(drift)}`,
    );

  const missingMetrics = await db.$queryRaw<{ id: string; iteration: number; metrics: bigint }[]>`
    SELECT r.id, r.iteration, (SELECT COUNT(*) FROM "RunMetric" m WHERE m."runId" = r.id AND m.iteration <= r.iteration)
      AS metrics
    FROM "Run" r WHERE r.iteration > 0`;
  const gaps = missingMetrics.filter((r) => Number(r.metrics) !== r.iteration);
  if (gaps.length)
    problems.push(
      `${gaps.length} runs miss metrics of finished iterations: ${some(gaps.map((r) => `${r.id} (${r.metrics}/${r.iteration})`))}`,
    );

  const leftovers = await db.$queryRaw<{ id: string; n: bigint }[]>`
    SELECT r.id, COUNT(t.id) AS n FROM "Run" r JOIN "Trajectory" t ON t."runId" = r.id
    WHERE r.status IN ('succeeded', 'failed', 'cancelled') AND t.iteration > r.iteration
    GROUP BY r.id`;
  if (leftovers.length)
    problems.push(
      `${leftovers.length} finished runs keep rollouts of an unfinished iteration: ${some(leftovers.map((r) => `${r.id} (${r.n})`))}`,
    );

  return problems;
}

/** LanceDB against the database, id by id: rows twice, rows missing, rows of no step. */
async function lanceProblems(
  db: Db,
  store: LanceReplayBuffer,
): Promise<{ problems: string[]; rows: number; ids: number; steps: number }> {
  const problems: string[] = [];
  const inLance = new Map<string, number>();
  let lanceRows = 0;
  for await (const ids of store.ids())
    for (const id of ids) {
      lanceRows++;
      inLance.set(id, (inLance.get(id) ?? 0) + 1);
    }
  const lanceIds = inLance.size;
  const twice = [...inLance].filter(([, n]) => n > 1).map(([id]) => id);
  if (twice.length) problems.push(`${twice.length} steps are in LanceDB more than once: ${some(twice)}`);
  const missing: string[] = [];
  let steps = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await db.step.findMany({
      ...(cursor !== undefined ? { where: { id: { gt: cursor } } } : {}),
      orderBy: { id: "asc" },
      take: 5_000,
      select: { id: true, indexedAt: true },
    });
    if (page.length === 0) break;
    for (const step of page) {
      steps++;
      if (!inLance.delete(step.id) && step.indexedAt !== null) missing.push(step.id);
    }
    cursor = page[page.length - 1]?.id;
  }
  if (missing.length)
    problems.push(`${missing.length} steps marked as indexed are missing from LanceDB: ${some(missing)}`);
  const orphans = [...inLance.keys()];
  if (orphans.length)
    problems.push(`${orphans.length} LanceDB rows belong to no step in the database: ${some(orphans)}`);

  return { problems, rows: lanceRows, ids: lanceIds, steps };
}

/** Jobs that failed, and runs left waiting for a job that will never run them. */
async function jobProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const failed = await db.job.findMany({
    where: { status: "failed" },
    select: { id: true, type: true, error: true },
    orderBy: { id: "asc" },
  });
  if (failed.length)
    problems.push(
      `${failed.length} jobs failed: ${some(failed.map((j) => `${j.id} (${j.type}: ${(j.error ?? "no error recorded").slice(0, 200)})`))}`,
    );

  const stuck = await stuckRuns(db);
  if (stuck.length)
    problems.push(
      `${stuck.length} runs wait for a job that will never run them: ${some(stuck.map((r) => `${r.id} (${r.status})`))}`,
    );

  return problems;
}

/**
 * Each iteration's metrics record the run's transitions so far (cumulative, real and synthetic); the run's stored
 * train rollouts up to that iteration must add up to them. Runs the environment server records are left out: their
 * trainers count what they played, not what was stored.
 */
async function iterationsThatDisagree(db: Db): Promise<string[]> {
  const stored = await db.$queryRaw<
    { runId: string; iteration: number; source: string; n: bigint | number }[]
  >`
    SELECT t."runId", t.iteration, t.source, SUM(t.length) AS n FROM "Trajectory" t JOIN "Run" r ON r.id = t."runId"
    WHERE t.purpose = 'train' AND t.iteration IS NOT NULL AND r.kind = 'worker'
    GROUP BY t."runId", t.iteration, t.source`;
  const metrics = await db.$queryRaw<
    { runId: string; iteration: number; realTransitions: number; syntheticTransitions: number }[]
  >`
    SELECT m."runId", m.iteration, m."realTransitions", m."syntheticTransitions" FROM "RunMetric" m
    JOIN "Run" r ON r.id = m."runId" WHERE r.kind = 'worker' ORDER BY m."runId", m.iteration`;
  const perIteration = new Map<string, { real: number; synthetic: number }>();
  for (const row of stored) {
    const key = `${row.runId}:${row.iteration}`;
    const sums = perIteration.get(key) ?? { real: 0, synthetic: 0 };
    if (row.source === "real") sums.real += Number(row.n);
    if (row.source === "synthetic") sums.synthetic += Number(row.n);
    perIteration.set(key, sums);
  }
  const iterationsOf = new Map<string, number[]>();
  for (const row of stored) {
    const list = iterationsOf.get(row.runId) ?? [];
    if (!list.includes(row.iteration)) list.push(row.iteration);
    iterationsOf.set(row.runId, list);
  }
  const wrong: string[] = [];
  for (const m of metrics) {
    let real = 0;
    let synthetic = 0;
    for (const iteration of iterationsOf.get(m.runId) ?? []) {
      if (iteration > m.iteration) continue;
      const sums = perIteration.get(`${m.runId}:${iteration}`);
      real += sums?.real ?? 0;
      synthetic += sums?.synthetic ?? 0;
    }
    if (real !== m.realTransitions || synthetic !== m.syntheticTransitions)
      wrong.push(
        `run ${m.runId} iteration ${m.iteration} (real ${m.realTransitions} counted, ${real} stored; synthetic ${m.syntheticTransitions} counted, ${synthetic} stored)`,
      );
  }
  return wrong;
}
