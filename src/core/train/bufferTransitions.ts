import type { Step, Task, TrajectorySource, Transition } from "../types";
import type { RunConfig } from "./config";
import { hasPhase, type Phase } from "./methods";

/**
 * What of an iteration's transitions joins the run's replay buffer: a synthetic iteration's with buffer enrichment
 * (experience.enrichBuffer), a real one's in DreamGym-S2R when the experience model learns them too
 * (experimental.learnFromReal); else nothing.
 */
export function bufferJoin(config: RunConfig, source: Phase): "add" | "add-and-learn" | undefined {
  if (source === "synthetic") return config.experience.enrichBuffer ? "add" : undefined;
  const s2r = hasPhase(config.method, "synthetic") && hasPhase(config.method, "real");
  return s2r && config.experimental.learnFromReal ? "add-and-learn" : undefined;
}

/** One episode of an iteration as the buffer takes it: its task, its place in its task's group, its steps. */
export interface GroupEpisode {
  task: Pick<Task, "id" | "domain" | "instruction">;
  /** The episode's index within its task's group (the stored trajectory's `group`). */
  group: number;
  steps: readonly Step[];
}

const byTaskThenGroup = (a: GroupEpisode, b: GroupEpisode) =>
  a.task.id < b.task.id ? -1 : a.task.id > b.task.id ? 1 : a.group - b.group;

/**
 * An iteration's episodes as replay-buffer transitions, in the order and with the ids that the stored rows give
 * again (task id, then place in the group; ids from the iteration, task, group and step), so that a run resumed
 * after a crash rebuilds the buffer it had, add for add (the buffer's index depends on that order).
 */
export function bufferTransitions(
  episodes: readonly GroupEpisode[],
  source: TrajectorySource,
  seed: number,
  iteration: number,
): Transition[] {
  return [...episodes].sort(byTaskThenGroup).flatMap((e) =>
    e.steps.map((step, index) => ({
      ...step,
      id: `${source}-${seed}-${iteration}-${e.task.id}-${e.group}-${index}`,
      domain: e.task.domain,
      instruction: e.task.instruction,
      source,
      taskId: e.task.id,
    })),
  );
}

/** A stored train episode of the run (iteration counted from 1, as reports are), read back to resume it. */
export interface StoredEpisode extends GroupEpisode {
  iteration: number;
  source: TrajectorySource;
}

/**
 * The buffer a resumed run had at its resume point: the offline data it was built with, plus each finished
 * iteration's transitions that joined it, added (and learnt) in the order the run added them.
 */
export async function restoreBuffer(
  config: RunConfig,
  deps: {
    buffer?: { add(transitions: Transition[]): Promise<void> | void };
    model?: { learn?(transitions: readonly Transition[]): void };
  },
  stored: readonly StoredEpisode[],
): Promise<void> {
  const byIteration = new Map<number, StoredEpisode[]>();
  for (const e of stored) byIteration.set(e.iteration, [...(byIteration.get(e.iteration) ?? []), e]);
  for (const iteration of [...byIteration.keys()].sort((a, b) => a - b)) {
    const episodes = byIteration.get(iteration) as StoredEpisode[];
    const source = episodes[0]?.source as TrajectorySource;
    const join = source === "synthetic" || source === "real" ? bufferJoin(config, source) : undefined;
    if (!join) continue;
    // The live run numbered its iterations from 0 (the report counts from 1).
    const transitions = bufferTransitions(episodes, source, config.seed, iteration - 1);
    await deps.buffer?.add(transitions);
    if (join === "add-and-learn") deps.model?.learn?.(transitions);
  }
}
