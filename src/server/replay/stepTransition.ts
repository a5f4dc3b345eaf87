import { z } from "zod";
import { TrajectorySource } from "@/shared/enums";
import type { Db } from "../db";
import { queryUnsafe } from "../sql/dialect";
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
      policy: true,
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
    /** Which policy acted (expert, noisy-0.3, random, linear@it3, …), where recorded. */
    policy: string | null;
    task: { instruction: string };
  };
}

/**
 * What STEP_SELECT gives, with one raw join instead of Prisma's nested select (about a quarter of its time, for
 * the paths that read every step of a domain or a run). `where` follows the WHERE of `s` (Step), `t`
 * (Trajectory) and `k` (Task), and may end with ORDER BY and LIMIT.
 */
export async function selectStepRows(
  db: Pick<Db, "$queryRawUnsafe">,
  where: string,
  ...params: (string | number)[]
): Promise<StepRow[]> {
  const rows = await queryUnsafe<
    {
      id: string;
      state: string;
      stateActions: unknown;
      action: string;
      nextState: string;
      nextActions: unknown;
      reward: number;
      done: boolean | number;
      success: boolean | number;
      valid: boolean | number;
      trajectoryId: string;
      domain: string;
      source: string;
      taskId: string;
      runId: string | null;
      iteration: number | bigint | null;
      policy: string | null;
      instruction: string;
    }[]
  >(
    db,
    `SELECT s.id, s.state, s."stateActions", s.action, s."nextState", s."nextActions", s.reward, s.done, s.success,
       s.valid, s."trajectoryId", t.domain, t.source, t."taskId", t."runId", t.iteration, t.policy, k.instruction
     FROM "Step" s JOIN "Trajectory" t ON t.id = s."trajectoryId" JOIN "Task" k ON k.id = t."taskId"
     WHERE ${where}`,
    ...params,
  );
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    stateActions: json(r.stateActions),
    action: r.action,
    nextState: r.nextState,
    nextActions: json(r.nextActions),
    reward: Number(r.reward),
    done: Boolean(r.done),
    success: Boolean(r.success),
    valid: Boolean(r.valid),
    trajectoryId: r.trajectoryId,
    trajectory: {
      domain: r.domain,
      source: r.source,
      taskId: r.taskId,
      runId: r.runId,
      iteration: r.iteration === null ? null : Number(r.iteration),
      policy: r.policy,
      task: { instruction: r.instruction },
    },
  }));
}

/** A JSON column as a raw query returns it: decoded already, or its text. */
function json(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
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
