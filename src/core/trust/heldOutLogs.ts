import type { ImportedDomain } from "../envs/imported/importedDomain";
import type { ReplayBuffer } from "../replay/buffer";
import type { Step, Task } from "../types";

/** One held-out logged episode, with the behaviour that played it. */
export interface HeldOutLog {
  task: Task;
  steps: Step[];
  success: boolean;
  /** The logs' policy label (expert, noisy-0.3, random, …), or UNLABELLED. */
  policy: string;
}

/** The label of logs that do not say which policy played them. */
export const UNLABELLED = "unlabelled";

/** The domain's held-out (test split) logs, successes and failures, in the logs' order. */
export function heldOutLogs(domain: ImportedDomain): HeldOutLog[] {
  return domain.logsOf("test").map((log) => ({
    task: log.task,
    steps: log.steps,
    success: log.success,
    policy: log.policy ?? UNLABELLED,
  }));
}

/**
 * At most `cap` logs, taken a task at a time (each task's first log, then each task's second, …), so that a cap
 * spreads over the tasks instead of spending itself on the first few.
 */
export function spreadOverTasks<T extends { task: Task }>(logs: readonly T[], cap: number): T[] {
  const byTask = new Map<string, T[]>();
  for (const log of logs) byTask.set(log.task.id, [...(byTask.get(log.task.id) ?? []), log]);
  const out: T[] = [];
  for (let pass = 0; out.length < Math.min(cap, logs.length); pass++)
    for (const own of byTask.values()) if (pass < own.length && out.length < cap) out.push(own[pass]!);
  return out;
}

/**
 * The replay buffer as the held-out checks must read it: never a held-out task's own transitions (the model
 * would be shown the answer), and never written to (a check must not change the run's buffer).
 */
export function trainOnly(buffer: ReplayBuffer, heldOutTaskIds: readonly string[]): ReplayBuffer {
  return {
    add: () => Promise.reject(new Error("the held-out checks read the replay buffer, they never add to it")),
    similar: (query, k, filter = {}) =>
      buffer.similar(query, k, {
        ...filter,
        excludeTaskIds: [...(filter.excludeTaskIds ?? []), ...heldOutTaskIds],
      }),
  };
}
