import type { Db } from "../db";

export interface Demonstration {
  stepId: string;
  /** Rank in the retrieval, 1 = most similar. */
  rank: number;
  /** Null when the demonstration's step has since been deleted from the replay buffer. */
  step: {
    trajectoryId: string;
    index: number;
    domain: string;
    source: string;
    policy: string | null;
    instruction: string;
    state: string;
    action: string;
    nextState: string;
    reward: number;
    done: boolean;
    valid: boolean;
  } | null;
}

/** SQLite bounds the number of bound parameters in one statement. */
const CHUNK = 500;

/** Step.neighbourIds is JSON written by the worker; anything that is not a list of ids counts as none. */
export function neighbourIdsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0) : [];
}

/**
 * The demonstrations the experience model retrieved from the replay buffer for every step of an episode, in one
 * query, so that the step view can move between steps without another round trip.
 */
export async function episodeDemonstrations(
  db: Db,
  trajectoryId: string,
): Promise<Record<string, Demonstration[]> | null> {
  const trajectory = await db.trajectory.findUnique({
    where: { id: trajectoryId },
    select: { steps: { select: { id: true, neighbourIds: true } } },
  });
  if (!trajectory) return null;
  const wanted = new Set(trajectory.steps.flatMap((s) => neighbourIdsOf(s.neighbourIds)));
  const ids = [...wanted];
  const chunks = Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, i) =>
    ids.slice(i * CHUNK, (i + 1) * CHUNK),
  );
  const found = (
    await Promise.all(
      chunks.map((chunk) =>
        db.step.findMany({
          where: { id: { in: chunk } },
          select: {
            id: true,
            trajectoryId: true,
            index: true,
            state: true,
            action: true,
            nextState: true,
            reward: true,
            done: true,
            valid: true,
            trajectory: {
              select: { domain: true, source: true, policy: true, task: { select: { instruction: true } } },
            },
          },
        }),
      ),
    )
  ).flat();
  const byId = new Map(found.map((s) => [s.id, s]));
  const result: Record<string, Demonstration[]> = {};
  for (const step of trajectory.steps) {
    result[step.id] = neighbourIdsOf(step.neighbourIds).map((id, i) => {
      const d = byId.get(id);
      return {
        stepId: id,
        rank: i + 1,
        step: d
          ? {
              trajectoryId: d.trajectoryId,
              index: d.index,
              domain: d.trajectory.domain,
              source: d.trajectory.source,
              policy: d.trajectory.policy,
              instruction: d.trajectory.task.instruction,
              state: d.state,
              action: d.action,
              nextState: d.nextState,
              reward: d.reward,
              done: d.done,
              valid: d.valid,
            }
          : null,
      };
    });
  }
  return result;
}
