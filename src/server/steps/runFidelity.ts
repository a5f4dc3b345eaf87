import {
  aggregate,
  type FidelityReport,
  scoreTransition,
  type TransitionScore,
} from "@/core/experience/fidelity";
import type { Db } from "../db";

export interface RunFidelity {
  runId: string;
  runName: string;
  domain: string;
  iteration: number | null;
  /** The run's synthetic steps (in the chosen iteration, if any). */
  syntheticSteps: number;
  /** Of those, the ones the real environment answered too: the figures below are over these. */
  withRealAnswer: number;
  /** Share of predicted next states that differ from the real one (1 - exact match). */
  differs: number;
  report: FidelityReport;
  flagged: number;
}

/**
 * How faithful the experience model was during a run: every synthetic step that has the real environment's
 * answer is scored with the same metrics as the offline fidelity benchmark (src/core/experience/fidelity), the
 * model having seen the task, the state, the action and the actions before it.
 */
export async function runFidelity(db: Db, runId: string, iteration?: number): Promise<RunFidelity | null> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, name: true, domain: true },
  });
  if (!run) return null;
  const trajectoryWhere = {
    runId,
    source: "synthetic",
    ...(iteration !== undefined ? { iteration } : {}),
  };
  const [syntheticSteps, flagged, trajectories] = await Promise.all([
    db.step.count({ where: { trajectory: trajectoryWhere } }),
    db.step.count({ where: { flagged: true, trajectory: trajectoryWhere } }),
    db.trajectory.findMany({
      where: trajectoryWhere,
      select: {
        task: { select: { instruction: true } },
        steps: {
          orderBy: { index: "asc" },
          select: {
            state: true,
            action: true,
            nextState: true,
            reward: true,
            done: true,
            valid: true,
            latencyMs: true,
            realNextState: true,
            realReward: true,
            realDone: true,
            realValid: true,
          },
        },
      },
    }),
  ]);
  const scores: TransitionScore[] = [];
  for (const trajectory of trajectories) {
    const history: string[] = [];
    for (const s of trajectory.steps) {
      if (s.realNextState !== null && s.realReward !== null) {
        scores.push(
          scoreTransition(
            {
              next: { text: s.nextState },
              reward: s.reward,
              done: s.done,
              valid: s.valid,
              latencyMs: s.latencyMs ?? 0,
            },
            {
              next: { text: s.realNextState },
              reward: s.realReward,
              // A missing flag means the real environment did not say otherwise.
              done: s.realDone ?? s.done,
              valid: s.realValid ?? s.valid,
            },
            {
              instruction: trajectory.task.instruction,
              state: s.state,
              action: s.action,
              history: [...history],
            },
          ),
        );
      }
      history.push(s.action);
    }
  }
  const report = aggregate(scores);
  return {
    runId: run.id,
    runName: run.name,
    domain: run.domain,
    iteration: iteration ?? null,
    syntheticSteps,
    withRealAnswer: scores.length,
    differs: scores.length === 0 ? 0 : Math.round((1 - report.exactMatch) * 10_000) / 10_000,
    report,
    flagged,
  };
}
