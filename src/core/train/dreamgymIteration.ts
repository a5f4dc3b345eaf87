import type { TaskGenerator } from "../curriculum/generator";
import { selectBatch } from "../curriculum/selectBatch";
import type { TaskIterationStats, TaskValueTable } from "../curriculum/valueTable";
import { proposeVariations } from "../curriculum/variations";
import type { RealDomain } from "../envs/domain";
import { SyntheticEnvironment } from "../experience/synthetic";
import type { ExperienceModel, ExperienceSettings } from "../experience/types";
import type { LinearSoftmaxPolicy } from "../policy/linearSoftmax";
import type { ReplayBuffer } from "../replay/buffer";
import { type CollectedEpisode, collectGroup } from "../rl/collect";
import type { Grpo } from "../rl/grpo";
import type { UpdateStats } from "../rl/stats";
import type { Task } from "../types";
import { Rng } from "../util/random";
import { episodeTransitions } from "./episodeTransitions";

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
}

export interface IterationResult {
  iteration: number;
  batch: Task[];
  episodes: CollectedEpisode[];
  taskStats: TaskIterationStats[];
  update: UpdateStats;
  /** Curriculum variations written this iteration (they join the pool for the next one). */
  generated: Task[];
  syntheticSuccess: number;
  meanReward: number;
  syntheticTransitions: number;
}

export interface IterationDeps {
  domain: RealDomain;
  policy: LinearSoftmaxPolicy;
  grpo: Grpo;
  model: ExperienceModel;
  buffer: ReplayBuffer;
  experience: ExperienceSettings;
  values: TaskValueTable;
  generator?: TaskGenerator;
}

/**
 * One DreamGym iteration: the curriculum picks a batch → G rollouts per task in the synthetic environment (the
 * experience model grounded in the replay buffer) → a GRPO update → the new transitions go into the replay
 * buffer → task values are updated and the most valuable tasks are varied for the next batches.
 */
export async function dreamGymIteration(
  deps: IterationDeps,
  settings: IterationSettings,
  iteration: number,
  pool: Task[],
): Promise<IterationResult> {
  const rng = new Rng(`${settings.seed}:iteration:${iteration}`);
  const { domain, policy, model, buffer, experience } = deps;
  const { tasks: batch } = selectBatch({
    candidates: deps.values.candidates(pool),
    batchSize: settings.tasksPerBatch,
    lambda: settings.lambda,
    rng,
  });
  const initialState = (task: Task) => domain.createEnvironment().reset(task);
  const makeEnv = () =>
    new SyntheticEnvironment(domain.name, model, buffer, experience, initialState, domain.maxSteps);
  const groups: CollectedEpisode[][] = [];
  for (const task of batch) {
    groups.push(
      await collectGroup(
        makeEnv,
        policy,
        task,
        domain.maxSteps,
        settings.groupSize,
        `it${iteration}:${task.id}`,
      ),
    );
  }
  const update = deps.grpo.update(groups.map((g) => g.map((e) => e.decisions)));
  const episodes = groups.flat();
  await buffer.add(
    episodes.flatMap((e, i) =>
      episodeTransitions(e.episode, "synthetic", `syn-${settings.seed}-${iteration}-${i}`),
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
    batch,
    episodes,
    taskStats,
    update,
    generated,
    syntheticSuccess: episodes.filter((e) => e.episode.success).length / n,
    meanReward: episodes.reduce((s, e) => s + e.episode.totalReward, 0) / n,
    syntheticTransitions: episodes.reduce((s, e) => s + e.episode.steps.length, 0),
  };
}
