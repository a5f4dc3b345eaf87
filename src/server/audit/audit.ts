import type { Db } from "../db";
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
 * an iteration's task statistics count its rollouts; a run's transition counters match its stored rollouts; a
 * finished run keeps no rollouts past its last iteration; no step has two traces from one teacher; every step is in
 * LanceDB exactly once, and LanceDB holds no step that the database does not.
 */
export async function auditStores(db: Db, store: LanceReplayBuffer): Promise<AuditReport> {
  const problems: string[] = [];

  const short = await db.$queryRaw<{ id: string; length: number; steps: bigint }[]>`
    SELECT t.id, t.length, COUNT(s.id) AS steps FROM "Trajectory" t LEFT JOIN "Step" s ON s."trajectoryId" = t.id
    GROUP BY t.id, t.length HAVING COUNT(s.id) <> t.length`;
  if (short.length)
    problems.push(
      `${short.length} trajectories do not hold as many steps as their length: ${some(short.map((t) => `${t.id} (${t.steps}/${t.length})`))}`,
    );

  const rolloutsTwice = await db.$queryRaw<{ runId: string; iteration: number; taskId: string; n: bigint }[]>`
    SELECT "runId", iteration, "taskId", "group", COUNT(*) AS n FROM "Trajectory"
    WHERE "runId" IS NOT NULL AND purpose = 'train'
    GROUP BY "runId", iteration, "taskId", "group" HAVING COUNT(*) > 1`;
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

  const tracesTwice = await db.$queryRaw<{ stepId: string; teacher: string; n: bigint }[]>`
    SELECT "stepId", teacher, COUNT(*) AS n FROM "Annotation" GROUP BY "stepId", teacher HAVING COUNT(*) > 1`;
  if (tracesTwice.length)
    problems.push(
      `${tracesTwice.length} steps have more than one trace from the same teacher: ${some(tracesTwice.map((a) => `${a.stepId} (${a.teacher}, ${a.n}×)`))}`,
    );

  // LanceDB against the database, id by id.
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

  const jobs: Record<string, number> = {};
  for (const g of await db.job.groupBy({ by: ["status"], _count: { _all: true } }))
    jobs[g.status] = g._count._all;
  return {
    counts: {
      jobs,
      runs: await db.run.count(),
      trajectories: await db.trajectory.count(),
      steps,
      metrics: await db.runMetric.count(),
      taskStats: await db.taskStat.count(),
      annotations: await db.annotation.count(),
      checkpoints: await db.checkpoint.count(),
      lanceRows,
      lanceIds,
      pendingSteps: await db.step.count({ where: { indexedAt: null } }),
    },
    problems,
  };
}
