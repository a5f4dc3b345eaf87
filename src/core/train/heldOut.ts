import type { RealDomain } from "../envs/domain";
import type { Task } from "../types";

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
