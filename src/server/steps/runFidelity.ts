import {
  aggregate,
  exactMatch,
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
  /** Closed loop: every step with a real answer, along the synthetic episode (see runFidelity). */
  report: FidelityReport;
  /**
   * The same figures over the steps still on the real path: the step's state is the real one (the episode's first
   * step, or a state equal to the real next state of the step before), so the model and the real environment
   * judged the action on the same page, as in the teacher-forced fidelity benchmark.
   */
  onPath: FidelityReport;
  flagged: number;
}

/**
 * How faithful the experience model was during a run: every synthetic step that has the real environment's
 * answer is scored with the same metrics as the offline fidelity benchmark (src/core/experience/fidelity), the
 * model having seen the task, the state, the action and the actions before it.
 *
 * The populations differ from the benchmark's. The benchmark is teacher-forced: at every step the model is given
 * the real state. Here the loop is closed: the policy acted on the model's own predictions, and the real answer
 * is the real environment replaying the same actions from the task's start (core/experience/realCheck). Once a
 * prediction leaves the real path, the next action was chosen on a predicted page the real environment never
 * showed, and is often invalid there although the model (rightly, for its page) called it valid; reward, done and
 * next state drift the same way. So `report` measures the run as it went, and `onPath` the steps comparable with
 * the benchmark.
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
  const onPath: TransitionScore[] = [];
  for (const trajectory of trajectories) {
    const history: string[] = [];
    let previousReal: string | null | undefined;
    for (const s of trajectory.steps) {
      const realState =
        previousReal === undefined || (previousReal !== null && exactMatch(s.state, previousReal));
      previousReal = s.realNextState;
      if (s.realNextState !== null && s.realReward !== null) {
        const score = scoreTransition(
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
        );
        scores.push(score);
        if (realState) onPath.push(score);
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
    onPath: aggregate(onPath),
    flagged,
  };
}
