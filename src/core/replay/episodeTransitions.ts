import type { Episode } from "../rollout";
import type { TrajectorySource, Transition } from "../types";

/** An episode's steps as replay-buffer transitions, with ids `${prefix}-${step}`. */
export function episodeTransitions(episode: Episode, source: TrajectorySource, prefix: string): Transition[] {
  return episode.steps.map((step, index) => ({
    ...step,
    id: `${prefix}-${index}`,
    domain: episode.task.domain,
    instruction: episode.task.instruction,
    source,
    taskId: episode.task.id,
  }));
}
