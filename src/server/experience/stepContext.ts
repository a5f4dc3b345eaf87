import type { ExperienceInput } from "@/core/experience/types";
import type { ReplayBuffer } from "@/core/replay/buffer";
import type { Observation, Split, Step, TaskOrigin, TrajectorySource } from "@/core/types";
import type { Prisma } from "@/generated/prisma/client";

/** A trajectory with its task and steps, as the teacher and the SFT export read it. */
export const TRAJECTORY_WITH_STEPS = {
  include: {
    task: { select: { id: true, domain: true, instruction: true, split: true, origin: true } },
    steps: { orderBy: { index: "asc" } },
  },
} as const satisfies Prisma.TrajectoryDefaultArgs;
export type TrajectoryWithSteps = Prisma.TrajectoryGetPayload<typeof TRAJECTORY_WITH_STEPS>;
export type StoredStep = TrajectoryWithSteps["steps"][number];

function actions(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

export function stateOf(step: StoredStep): Observation {
  const a = actions(step.stateActions);
  return a ? { text: step.state, actions: a } : { text: step.state };
}

export function nextOf(step: StoredStep): Observation {
  const a = actions(step.nextActions);
  return a ? { text: step.nextState, actions: a } : { text: step.nextState };
}

export function toStep(step: StoredStep): Step {
  return {
    state: stateOf(step),
    action: step.action,
    ...(step.reasoning ? { reasoning: step.reasoning } : {}),
    next: nextOf(step),
    reward: step.reward,
    done: step.done,
    success: step.success,
    valid: step.valid,
  };
}

/**
 * The experience model's input for a stored step, as it would have been asked: the steps before it as history
 * (bounded by the window), and demonstrations retrieved from the buffer, never the step itself.
 */
export async function stepInput(
  trajectory: TrajectoryWithSteps,
  position: number,
  buffer: ReplayBuffer | undefined,
  settings: { k: number; historyWindow: number; sources?: TrajectorySource[] },
): Promise<ExperienceInput> {
  const step = trajectory.steps[position]!;
  const task = {
    id: trajectory.task.id,
    domain: trajectory.task.domain,
    instruction: trajectory.task.instruction,
    split: trajectory.task.split as Split,
    origin: trajectory.task.origin as TaskOrigin,
  };
  const history =
    settings.historyWindow > 0
      ? trajectory.steps.slice(Math.max(0, position - settings.historyWindow), position).map(toStep)
      : [];
  const demonstrations =
    buffer && settings.k > 0
      ? await buffer.similar(
          { domain: task.domain, state: step.state, action: step.action, instruction: task.instruction },
          settings.k,
          {
            excludeIds: [step.id],
            ...(settings.sources ? { sources: settings.sources } : {}),
          },
        )
      : [];
  return { task, history, state: stateOf(step), action: step.action, demonstrations };
}
