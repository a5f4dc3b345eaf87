import type { RealDomain } from "../envs/domain";
import type { Observation, Task } from "../types";

/**
 * Where a synthetic episode starts in a built-in domain. A task with a goal starts where its real episode does
 * (the real environment's reset). A blind variation has no goal, so no real environment can build its world: it
 * starts from its root seed task's first state, with the root's instruction replaced by its own wherever that
 * state quotes it (a domain-free rule: a first state that quotes the task quotes the variation's). What the world
 * holds beyond that is the experience model's to say, as in the paper. Roots' first states are kept: every
 * rollout of a variation starts from one.
 */
export function startStates(
  domain: RealDomain,
  seedTasks: readonly Task[],
): (task: Task) => Promise<Observation> {
  const roots = new Map(seedTasks.map((t) => [t.id, t]));
  const firstOfRoot = new Map<string, Promise<Observation>>();
  return async (task) => {
    if (task.goal !== undefined) return domain.createEnvironment().reset(task);
    // A variation's id begins with its root task's (curriculum/generator.ts variationId).
    const rootId = task.id.split("~")[0] as string;
    const root = roots.get(rootId);
    if (!root || root.goal === undefined)
      throw new Error(
        `task ${task.id} has no goal and its root ${rootId} is not one of the run's seed tasks: no first state to start it from`,
      );
    let first = firstOfRoot.get(rootId);
    if (!first) {
      first = domain.createEnvironment().reset(root);
      firstOfRoot.set(rootId, first);
    }
    const state = await first;
    return {
      text: state.text.split(root.instruction).join(task.instruction),
      ...(state.actions ? { actions: [...state.actions] } : {}),
    };
  };
}
