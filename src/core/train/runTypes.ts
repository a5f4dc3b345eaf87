import type { TaskGenerator } from "../curriculum/generator";
import type { TaskIterationStats, TaskValueTableSnapshot } from "../curriculum/valueTable";
import type { RealDomain } from "../envs/domain";
import type { TrainingDomain } from "../envs/trainingDomain";
import type { OutcomeJudge } from "../experience/openaiOutcomeJudge";
import type { ExperienceModel } from "../experience/types";
import type { PolicyCheckpoint } from "../policy/checkpoint";
import type { ReplayBuffer } from "../replay/buffer";
import type { UpdateStats } from "../rl/stats";
import type { Episode } from "../rollout";
import type { Task } from "../types";
import type { StoredEpisode } from "./bufferTransitions";
import type { RunConfig } from "./config";
import type { EvaluationResult } from "./evaluate";
import type { LearnerState } from "./learner";
import type { trainedWith } from "./methods";
import type { RolloutPool } from "./rolloutPool";

/** The contracts of a training run: what it is given, what it reports after each iteration, what it returns. */

/** Where a run stands after an iteration: enough to resume it there after a crash. */
export interface RunState {
  iterations: number;
  realTransitions: number;
  syntheticTransitions: number;
  policy: PolicyCheckpoint;
  values: TaskValueTableSnapshot;
  /** Curriculum variations written so far (the pool is the seed tasks plus these). */
  generated: Task[];
  /** Optimizer, minibatch generator and critic; absent in checkpoints written before it was kept. */
  learner?: LearnerState;
}

export interface IterationReport {
  phase: "synthetic" | "real";
  iteration: number;
  rolloutSuccess: number;
  meanReward: number;
  /** Cumulative real transitions used for training (evaluation episodes are not training data). */
  realTransitions: number;
  syntheticTransitions: number;
  taskStats: TaskIterationStats[];
  update: UpdateStats;
  /** The Adam step size of this iteration's update. */
  learningRate: number;
  generated: Task[];
  /** The iteration's rollouts, for the store (with the real environment's answers where it has one). */
  episodes: Episode[];
  evaluation?: EvaluationResult;
  /** The same policy, at the same evaluation point, on the first test tasks in the synthetic environment. */
  simulated?: EvaluationResult;
  state: RunState;
}

export interface RunDeps {
  /** A built-in domain, or an imported one (synthetic phases only, evaluated by proxies). */
  domain: TrainingDomain;
  /**
   * The replay buffer, filled with the offline data; DreamGym adds its synthetic transitions to it. With the
   * experience model, needed by the methods with a synthetic phase only.
   */
  buffer?: ReplayBuffer;
  model?: ExperienceModel;
  /** Writes curriculum variations; needed when the run's task generation is on. */
  generator?: TaskGenerator;
  onIteration?: (report: IterationReport) => Promise<void> | void;
  signal?: AbortSignal;
  /** Continue a run from the state of its last finished iteration. */
  resume?: RunState;
  /**
   * The run's stored train episodes up to `resume` (its store's rows), from which a resumed run rebuilds what its
   * iterations added to the replay buffer (buffer enrichment, learnFromReal). Without it a resumed run's buffer
   * holds the offline data alone.
   */
  storedEpisodes?: () => Promise<StoredEpisode[]>;
  /** The built-in domain named by `evaluation.groundTruth`, whose real test tasks score the final policy once. */
  groundTruth?: RealDomain;
  /** `evaluation.judge`: the LLM that judges an imported domain's evaluation episodes. */
  outcomeJudge?: OutcomeJudge;
  /**
   * Synthetic episodes on other cores (rolloutPool.ts): the same environment as `model` and `buffer` give, so a
   * run's results do not depend on it.
   */
  rollouts?: RolloutPool;
}

export interface RunResult {
  method: RunConfig["method"];
  domain: RunConfig["domain"];
  /** What the policy was trained with: GRPO, PPO, behaviour cloning or nothing (methods.ts `trainedWith`). */
  algorithm: ReturnType<typeof trainedWith>;
  seed: number;
  untrained: EvaluationResult;
  final: EvaluationResult;
  /** The final policy in the synthetic environment (methods with a synthetic phase): final minus this is the gap. */
  finalSimulated?: EvaluationResult;
  /** An imported copy of a built-in domain: the final policy on that domain's real test tasks (evaluation.groundTruth). */
  groundTruth?: EvaluationResult;
  realTransitions: number;
  syntheticTransitions: number;
  iterations: number;
  seconds: number;
  checkpoint: PolicyCheckpoint;
}
