import { z } from "zod";
import { TrajectorySource } from "@/shared/enums";
import type { StoredTransition } from "./lanceSchema";

/** What a transition needs from a Step row and its trajectory: select this, then map with stepToTransition. */
export const STEP_SELECT = {
  id: true,
  state: true,
  stateActions: true,
  action: true,
  nextState: true,
  nextActions: true,
  reward: true,
  done: true,
  success: true,
  valid: true,
  trajectoryId: true,
  trajectory: {
    select: {
      domain: true,
      source: true,
      taskId: true,
      runId: true,
      iteration: true,
      task: { select: { instruction: true } },
    },
  },
} as const;

const Actions = z.array(z.string()).nullable();

interface StepRow {
  id: string;
  state: string;
  stateActions: unknown;
  action: string;
  nextState: string;
  nextActions: unknown;
  reward: number;
  done: boolean;
  success: boolean;
  valid: boolean;
  trajectoryId: string;
  trajectory: {
    domain: string;
    source: string;
    taskId: string;
    runId: string | null;
    iteration: number | null;
    task: { instruction: string };
  };
}

/** A Step row as the replay buffer keeps it; the database's strings and JSON are checked, not trusted. */
export function stepToTransition(step: StepRow): StoredTransition {
  const where = `step ${step.id}`;
  const source = TrajectorySource.safeParse(step.trajectory.source);
  if (!source.success) throw new Error(`${where}: unknown trajectory source "${step.trajectory.source}"`);
  const stateActions = Actions.safeParse(step.stateActions ?? null);
  const nextActions = Actions.safeParse(step.nextActions ?? null);
  if (!stateActions.success || !nextActions.success) {
    throw new Error(`${where}: stateActions and nextActions must be arrays of strings`);
  }
  return {
    id: step.id,
    trajectoryId: step.trajectoryId,
    domain: step.trajectory.domain,
    source: source.data,
    taskId: step.trajectory.taskId,
    runId: step.trajectory.runId,
    iteration: step.trajectory.iteration,
    instruction: step.trajectory.task.instruction,
    state: { text: step.state, ...(stateActions.data ? { actions: stateActions.data } : {}) },
    action: step.action,
    next: { text: step.nextState, ...(nextActions.data ? { actions: nextActions.data } : {}) },
    reward: step.reward,
    done: step.done,
    success: step.success,
    valid: step.valid,
  };
}
