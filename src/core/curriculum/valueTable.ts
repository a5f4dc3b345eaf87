/**
 * The running task-value table: what the curriculum believes each task is worth to train on now.
 *
 * Choice: an exponential moving average over the iterations in which the task was rolled out,
 *   value ← α · variance(latest group) + (1 − α) · value,   α = 0.5 by default,
 * and the first group sets the value outright (no pull towards an arbitrary prior).
 * Why not the latest group alone: groups are small (4–8 rollouts), so one unlucky group of all failures would
 * zero a frontier task and drop it from the curriculum. Why not the mean over all groups: the policy moves, and a
 * task it has since mastered must lose its value within a couple of iterations; with α = 0.5 a task whose groups
 * turn uniform keeps half its value after one iteration and a quarter after two.
 */
import { z } from "zod";
import type { Task } from "../types";
import { type TaskStats, taskStats } from "./taskValue";

/** One task's group statistics in one iteration, with the running value after it: a row of the heatmap. */
export interface TaskIterationStats extends TaskStats {
  taskId: string;
  iteration: number;
  /** The table's running task value after this iteration's group. */
  value: number;
}

export interface TaskValueEntry {
  taskId: string;
  value: number;
  /** Iterations in which the task was rolled out (0 never appears: unseen tasks have no entry). */
  seenCount: number;
  lastIteration: number;
  last: TaskStats;
}

/** What selectBatch ranks: a task, its running value and how often it was seen (0 = unseen, value unused). */
export interface TaskCandidate {
  task: Task;
  value: number;
  seenCount: number;
}

const Stats = z.object({
  count: z.number().int().positive(),
  meanReward: z.number().finite(),
  variance: z.number().finite().nonnegative(),
  successRate: z.number().min(0).max(1),
});

/** A saved table (a run's resume point); parsed with zod because it comes back from storage. */
export const TaskValueTableSnapshot = z.object({
  alpha: z.number().gt(0).lte(1),
  entries: z.array(
    z.object({
      taskId: z.string().min(1),
      value: z.number().finite().nonnegative(),
      seenCount: z.number().int().positive(),
      lastIteration: z.number().int().nonnegative(),
      last: Stats,
    }),
  ),
});
export type TaskValueTableSnapshot = z.infer<typeof TaskValueTableSnapshot>;

export const DEFAULT_VALUE_ALPHA = 0.5;

export class TaskValueTable {
  private readonly entries = new Map<string, TaskValueEntry>();

  constructor(readonly alpha: number = DEFAULT_VALUE_ALPHA) {
    if (!(alpha > 0 && alpha <= 1))
      throw new RangeError(`task value table: alpha must be in (0, 1], got ${alpha}`);
  }

  static fromSnapshot(input: unknown): TaskValueTable {
    const parsed = TaskValueTableSnapshot.safeParse(input);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
      throw new Error(`invalid task value table snapshot: ${where.join("; ")}`);
    }
    const table = new TaskValueTable(parsed.data.alpha);
    for (const entry of parsed.data.entries) table.entries.set(entry.taskId, { ...entry });
    return table;
  }

  /** Folds one group of rewards into the task's value and returns the row to save for this iteration. */
  observe(iteration: number, taskId: string, rewards: readonly number[]): TaskIterationStats {
    if (!Number.isInteger(iteration) || iteration < 0)
      throw new RangeError(`task value table: iteration must be a natural number, got ${iteration}`);
    const stats = taskStats(rewards);
    const previous = this.entries.get(taskId);
    const value =
      previous === undefined
        ? stats.variance
        : this.alpha * stats.variance + (1 - this.alpha) * previous.value;
    this.entries.set(taskId, {
      taskId,
      value,
      seenCount: (previous?.seenCount ?? 0) + 1,
      lastIteration: iteration,
      last: stats,
    });
    return { taskId, iteration, ...stats, value };
  }

  /** One iteration's groups, in the order given. */
  observeIteration(
    iteration: number,
    groups: readonly { taskId: string; rewards: readonly number[] }[],
  ): TaskIterationStats[] {
    return groups.map((g) => this.observe(iteration, g.taskId, g.rewards));
  }

  get(taskId: string): TaskValueEntry | undefined {
    const entry = this.entries.get(taskId);
    return entry === undefined ? undefined : { ...entry };
  }

  /** The tasks as selectBatch candidates; tasks never rolled out come back with seenCount 0. */
  candidates(tasks: readonly Task[]): TaskCandidate[] {
    return tasks.map((task) => {
      const entry = this.entries.get(task.id);
      return { task, value: entry?.value ?? 0, seenCount: entry?.seenCount ?? 0 };
    });
  }

  snapshot(): TaskValueTableSnapshot {
    const entries = [...this.entries.values()]
      .sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0))
      .map((e) => ({ ...e, last: { ...e.last } }));
    return { alpha: this.alpha, entries };
  }
}
