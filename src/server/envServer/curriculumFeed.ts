/**
 * The curriculum of an external run, handing out one task per reset (ARCHITECTURE.md "One iteration", step 1):
 * batches chosen by selectBatch from the run's task values, under the λ bound on generated tasks, handed out in
 * order; a GRPO group gets one task for all its members. Task values are the running averages of the variance of
 * each task's rewards per policy version, folded from the run's TaskStat rows, so a restarted server picks up
 * where it was.
 */
import { selectBatch } from "@/core/curriculum/selectBatch";
import { DEFAULT_VALUE_ALPHA, type TaskCandidate } from "@/core/curriculum/valueTable";
import type { TrainingDomain } from "@/core/envs/trainingDomain";
import type { RunConfig } from "@/core/train/config";
import type { Task } from "@/core/types";
import { Rng } from "@/core/util/random";
import type { Db } from "../db";
import { taskById } from "./tasks";

/** Groups remembered per run: far more than a trainer keeps in flight. */
const MAX_GROUPS = 10_000;

export class CurriculumFeed {
  private queue: Task[] = [];
  private readonly groups = new Map<string, { task: Task; members: number }>();
  private batches = 0;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly runId: string,
    private readonly config: RunConfig,
    private readonly domain: TrainingDomain,
  ) {}

  /** The next task, and the index of this episode within its group (0 without a group). */
  next(group?: string): Promise<{ task: Task; member: number }> {
    // One at a time: two resets of a new group must not both pick its task.
    const result = this.chain.then(() => this.pick(group));
    this.chain = result.catch(() => undefined);
    return result;
  }

  private async pick(group?: string): Promise<{ task: Task; member: number }> {
    const known = group !== undefined ? this.groups.get(group) : undefined;
    if (known) {
      known.members++;
      return { task: known.task, member: known.members - 1 };
    }
    if (this.queue.length === 0) this.queue = await this.batch();
    const task = this.queue.shift() as Task;
    if (group !== undefined) {
      if (this.groups.size >= MAX_GROUPS) this.groups.delete(this.groups.keys().next().value as string);
      this.groups.set(group, { task, members: 1 });
    }
    return { task, member: 0 };
  }

  private async batch(): Promise<Task[]> {
    const seeds = this.domain.tasks("train", this.config.seedTasks);
    const generatedRows = await this.db.task.findMany({
      where: { runId: this.runId, origin: "generated" },
      select: { id: true },
    });
    const generated = await Promise.all(generatedRows.map((r) => taskById(this.db, this.domain, r.id)));
    const candidates = await this.candidates([...seeds, ...generated]);
    const { tasks } = selectBatch({
      candidates,
      batchSize: this.config.tasksPerBatch,
      lambda: this.config.curriculum.lambda,
      rng: new Rng(`${this.config.seed}:external:${this.runId}:${this.batches++}`),
    });
    if (tasks.length === 0) throw new Error(`the curriculum of run ${this.runId} has no task to hand out`);
    return tasks;
  }

  /** The pool with its running task values, as TaskValueTable folds them (first group sets, then an EMA). */
  private async candidates(pool: Task[]): Promise<TaskCandidate[]> {
    const stats = await this.db.taskStat.findMany({
      where: { runId: this.runId },
      orderBy: { iteration: "asc" },
      select: { taskId: true, variance: true },
    });
    const values = new Map<string, { value: number; seen: number }>();
    for (const s of stats) {
      const before = values.get(s.taskId);
      values.set(s.taskId, {
        value: before
          ? DEFAULT_VALUE_ALPHA * s.variance + (1 - DEFAULT_VALUE_ALPHA) * before.value
          : s.variance,
        seen: (before?.seen ?? 0) + 1,
      });
    }
    return pool.map((task) => ({
      task,
      value: values.get(task.id)?.value ?? 0,
      seenCount: values.get(task.id)?.seen ?? 0,
    }));
  }
}
