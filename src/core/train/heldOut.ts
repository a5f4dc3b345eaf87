import type { RealDomain } from "../envs/domain";
import type { Split, Task } from "../types";

/**
 * The held-out tasks a run is evaluated on. "test": the domain's test split, what the reproduction table reports.
 * "validation": train tasks from VALIDATION_OFFSET on, which no run trains on (seed tasks stay below it), for
 * choosing settings without ever looking at the test tasks. They are drawn from the train goal pool, so they
 * measure generalisation to new tasks of the training distribution, as a validation split should.
 */
export const HELD_OUT_TASKS = ["test", "validation"] as const;
export type HeldOutTasks = (typeof HELD_OUT_TASKS)[number];

/** Train tasks from this index on are the validation tasks; a run evaluated on them trains on fewer seed tasks. */
export const VALIDATION_OFFSET = 2_000;

export function heldOutTasks(
  domain: Pick<RealDomain, "task" | "tasks">,
  which: HeldOutTasks,
  count: number,
): Task[] {
  if (which === "test") return domain.tasks("test", count);
  return Array.from({ length: count }, (_, i) => heldOutTask(domain, which, i));
}

/** The i-th held-out task, for consumers that draw tasks one at a time. */
export function heldOutTask(domain: Pick<RealDomain, "task">, which: HeldOutTasks, i: number): Task {
  return which === "test" ? domain.task("test", i) : domain.task("train", VALIDATION_OFFSET + i);
}

/**
 * Every task of the domain's own a run plays, by split and index: its seed tasks and its held-out tasks. A domain
 * whose tasks are asked of an outside environment (a remote one) prepares exactly these before the run starts.
 */
export function runTaskAddresses(config: {
  seedTasks: number;
  evaluation: { tasks: HeldOutTasks; episodes: number };
}): { split: Split; index: number }[] {
  const seeds = Array.from({ length: config.seedTasks }, (_, index) => ({ split: "train" as const, index }));
  const heldOut = Array.from({ length: config.evaluation.episodes }, (_, i) =>
    config.evaluation.tasks === "test"
      ? { split: "test" as const, index: i }
      : { split: "train" as const, index: VALIDATION_OFFSET + i },
  );
  return [...seeds, ...heldOut];
}
