/**
 * An external run's curves and heatmap, from its stored episodes: the same RunMetric and TaskStat rows a worker
 * run writes per iteration, with the trainer's policy version as the iteration. Finished training episodes count for
 * success and reward; every recorded step of one counts as a transition used. Evaluation episodes count in none. The trainer's own figures (loss, KL) in
 * the metric's `extra.trainer` are kept.
 */
import { taskStats } from "@/core/curriculum/taskValue";
import type { Db } from "../db";
import { takeWriteLock } from "../retention/transaction";
import { queryUnsafe } from "../sql/dialect";
import { TX_LIMITS } from "./externalRuns";

interface Row {
  iteration: number | bigint;
  source: string;
  status: string;
  episodes: number | bigint;
  successes: number | bigint | null;
  reward: number | null;
  transitions: number | bigint | null;
}

const n = (v: number | bigint | null) => Number(v ?? 0);

export async function refreshRunFigures(db: Db, runId: string, versions: readonly number[]): Promise<void> {
  const rows = await queryUnsafe<Row[]>(
    db,
    `SELECT "iteration", "source", "status", COUNT(*) AS episodes,
            SUM(CASE WHEN "success" THEN 1 ELSE 0 END) AS successes,
            SUM("totalReward") AS reward, SUM("length") AS transitions
       FROM "Trajectory" WHERE "runId" = ? AND "iteration" IS NOT NULL AND "purpose" = 'train' GROUP BY "iteration", "source", "status"`,
    runId,
  );
  const byVersion = new Map<
    number,
    { done: Record<string, { episodes: number; successes: number }>; reward: number; finished: number }
  >();
  const transitions = new Map<number, { real: number; synthetic: number }>();
  for (const r of rows) {
    const v = n(r.iteration);
    const t = transitions.get(v) ?? { real: 0, synthetic: 0 };
    // A live episode's length is its steps stored so far.
    if (r.source === "real") t.real += n(r.transitions);
    else t.synthetic += n(r.transitions);
    transitions.set(v, t);
    if (r.status !== "done") continue;
    const entry = byVersion.get(v) ?? { done: {}, reward: 0, finished: 0 };
    const d = entry.done[r.source] ?? { episodes: 0, successes: 0 };
    d.episodes += n(r.episodes);
    d.successes += n(r.successes);
    entry.done[r.source] = d;
    entry.reward += r.reward ?? 0;
    entry.finished += n(r.episodes);
    byVersion.set(v, entry);
  }
  // Versions the trainer only posted figures for carry the cumulative counts forward too.
  const posted = await db.runMetric.findMany({ where: { runId }, select: { iteration: true } });
  const all = [
    ...new Set([...byVersion.keys(), ...transitions.keys(), ...posted.map((m) => m.iteration)]),
  ].sort((a, b) => a - b);
  let real = 0;
  let synthetic = 0;
  const share = (d?: { episodes: number; successes: number }) =>
    d?.episodes ? d.successes / d.episodes : null;
  const metrics = all.map((iteration) => {
    const t = transitions.get(iteration);
    real += t?.real ?? 0;
    synthetic += t?.synthetic ?? 0;
    const e = byVersion.get(iteration);
    return {
      iteration,
      syntheticSuccess: share(e?.done.synthetic),
      // The trainer's real episodes: on an external run this curve is the real environment's success in training.
      realSuccess: share(e?.done.real),
      meanReward: e?.finished ? e.reward / e.finished : null,
      realTransitions: real,
      syntheticTransitions: synthetic,
    };
  });
  const stats = await taskStatRows(db, runId, versions);
  await db.$transaction(async (tx) => {
    // The write lock first: a deferred transaction that read before another connection wrote cannot write.
    await takeWriteLock(tx);
    for (const m of metrics) {
      const { iteration, ...figures } = m;
      await tx.runMetric.upsert({
        where: { runId_iteration: { runId, iteration } },
        create: { runId, iteration, ...figures, extra: { phase: "external" } },
        update: figures,
      });
    }
    await tx.taskStat.deleteMany({ where: { runId, iteration: { in: [...versions] } } });
    if (stats.length > 0) await tx.taskStat.createMany({ data: stats });
    await tx.run.update({
      where: { id: runId },
      data: {
        iteration: Math.max(0, ...all),
        realTransitions: real,
        syntheticTransitions: synthetic,
      },
    });
  }, TX_LIMITS);
}

/** Each task's group statistics per policy version: its finished episodes' rewards (the curriculum's value). */
async function taskStatRows(db: Db, runId: string, versions: readonly number[]) {
  const episodes = await db.trajectory.findMany({
    // Evaluation episodes (test tasks among them) are no training signal and must never reach the curriculum.
    where: { runId, status: "done", purpose: "train", iteration: { in: [...versions] } },
    select: { iteration: true, taskId: true, totalReward: true },
  });
  const groups = new Map<string, { iteration: number; taskId: string; rewards: number[] }>();
  for (const e of episodes) {
    const key = `${e.iteration}\u0000${e.taskId}`;
    const g = groups.get(key) ?? { iteration: e.iteration ?? 0, taskId: e.taskId, rewards: [] };
    g.rewards.push(e.totalReward);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => ({
    runId,
    iteration: g.iteration,
    taskId: g.taskId,
    ...taskStats(g.rewards),
  }));
}
