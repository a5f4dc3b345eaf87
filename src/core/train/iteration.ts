import type { TaskGenerator } from "../curriculum/generator";
import { selectBatch } from "../curriculum/selectBatch";
import type { TaskIterationStats, TaskValueTable } from "../curriculum/valueTable";
import { proposeVariations } from "../curriculum/variations";
import type { TrainingDomain } from "../envs/trainingDomain";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { ReplayBuffer } from "../replay/buffer";
import type { CollectedEpisode } from "../rl/collect";
import type { UpdateStats } from "../rl/stats";
import type { Environment, Task, TrajectorySource } from "../types";
import { Rng } from "../util/random";
import { bufferTransitions } from "./bufferTransitions";
import { collectGroups } from "./collectGroups";
import type { Learner } from "./learner";
import type { RolloutPool } from "./rolloutPool";

/** The knobs of one DreamGym iteration (the paper's names). */
export interface IterationSettings {
  tasksPerBatch: number;
  /** Rollouts per task: the GRPO group, and the sample for the task value. */
  groupSize: number;
  /** Upper bound on the share of generated tasks in a batch (λ). */
  lambda: number;
  /** Most valuable tasks varied per iteration (0 ablates task generation). */
  parentsPerIteration: number;
  variationsPerParent: number;
  seed: number;
  /** Rollouts in flight at once; results do not depend on it. */
  concurrency: number;
}

export interface IterationResult {
  iteration: number;
  batch: Task[];
  episodes: CollectedEpisode[];
  taskStats: TaskIterationStats[];
  update: UpdateStats;
  /** Curriculum variations written this iteration (they join the pool for the next one). */
  generated: Task[];
  /** Success of the training rollouts themselves (synthetic in DreamGym). */
  rolloutSuccess: number;
  meanReward: number;
  transitions: number;
}

export interface IterationDeps {
  domain: TrainingDomain;
  policy: LinearPolicy;
  learner: Learner;
  /** A fresh environment per rollout: synthetic (DreamGym) or real (the real-env baseline, S2R). */
  makeEnv: () => Environment;
  /** What the rollouts are, for the replay buffer and the store. */
  source: TrajectorySource;
  /** New transitions are added here (DreamGym's synthetic rollouts, S2R's real ones when the model learns them). */
  buffer?: Pick<ReplayBuffer, "add">;
  /** Other cores playing this iteration's episodes too (synthetic phases with a pool). */
  pool?: RolloutPool;
  values: TaskValueTable;
  generator?: TaskGenerator;
  /**
   * Environment steps this iteration may take at most (the rest of a real budget). Episodes are cut short when it
   * runs out and no later rollout starts, so a run never spends more real transitions than its budget.
   */
  transitionBudget?: number;
}

/**
 * One training iteration: the curriculum picks a batch → G rollouts per task (in DreamGym, in the synthetic
 * environment: the experience model grounded in the replay buffer) → a GRPO or PPO update → the new transitions
 * go into the replay buffer → task values are updated and the most valuable tasks are varied for later batches.
 */
export async function trainingIteration(
  deps: IterationDeps,
  settings: IterationSettings,
  iteration: number,
  pool: Task[],
): Promise<IterationResult> {
  const rng = new Rng(`${settings.seed}:iteration:${iteration}`);
  const { domain, policy, buffer } = deps;
  const { tasks: batch } = selectBatch({
    candidates: deps.values.candidates(pool),
    batchSize: settings.tasksPerBatch,
    lambda: settings.lambda,
    rng,
  });
  const groups = await collectGroups({
    batch,
    groupSize: settings.groupSize,
    maxSteps: domain.maxSteps,
    keyPrefix: `${settings.seed}:it${iteration}`,
    makeEnv: deps.makeEnv,
    policy,
    ...(deps.learner.value ? { value: deps.learner.value } : {}),
    concurrency: settings.concurrency,
    ...(deps.transitionBudget !== undefined ? { transitionBudget: deps.transitionBudget } : {}),
    ...(deps.pool ? { pool: deps.pool } : {}),
  });
  const update = deps.learner.update(groups.map((g) => g.map((e) => e.decisions)));
  const episodes = groups.flat();
  if (buffer)
    await buffer.add(
      bufferTransitions(
        groups.flatMap((g, i) =>
          g.map((e, group) => ({ task: batch[i] as Task, group, steps: e.episode.steps })),
        ),
        deps.source,
        settings.seed,
        iteration,
      ),
    );
  const taskStats = deps.values.observeIteration(
    iteration,
    groups.map((g, i) => ({ taskId: batch[i]!.id, rewards: g.map((e) => e.episode.totalReward) })),
  );
  const generated =
    deps.generator && settings.parentsPerIteration > 0
      ? (
          await proposeVariations({
            candidates: deps.values.candidates(pool),
            generator: deps.generator,
            parents: settings.parentsPerIteration,
            perParent: settings.variationsPerParent,
            rng,
          })
        ).tasks
      : [];
  const n = Math.max(1, episodes.length);
  return {
    iteration,
    batch: batch.slice(0, groups.length),
    episodes,
    taskStats,
    update,
    generated,
    rolloutSuccess: episodes.filter((e) => e.episode.success).length / n,
    meanReward: episodes.reduce((s, e) => s + e.episode.totalReward, 0) / n,
    transitions: episodes.reduce((s, e) => s + e.episode.steps.length, 0),
  };
}
