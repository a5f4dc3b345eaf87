import type { TaskGenerator } from "../curriculum/generator";
import type { TaskIterationStats } from "../curriculum/valueTable";
import { TaskValueTable, type TaskValueTableSnapshot } from "../curriculum/valueTable";
import type { RealDomain } from "../envs/domain";
import { SyntheticEnvironment } from "../experience/synthetic";
import type { ExperienceModel, ExperienceSettings } from "../experience/types";
import { loadCheckpoint, type PolicyCheckpoint, saveCheckpoint } from "../policy/checkpoint";
import { LinearSoftmaxPolicy } from "../policy/linearSoftmax";
import { replayDecisions } from "../policy/replayDecisions";
import type { ReplayBuffer } from "../replay/buffer";
import { BehaviourCloning } from "../rl/bc";
import type { UpdateStats } from "../rl/stats";
import { type Episode, rollout } from "../rollout";
import type { Task } from "../types";
import type { RunConfig } from "./config";
import { type EvaluationResult, evaluatePolicy } from "./evaluate";
import { trainingIteration } from "./iteration";
import { grpoLearner, type Learner, type LearnerState, ppoLearner } from "./learner";

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
  generated: Task[];
  /** The iteration's rollouts, for the store (with the real environment's answers where it has one). */
  episodes: Episode[];
  evaluation?: EvaluationResult;
  state: RunState;
}

export interface RunDeps {
  domain: RealDomain;
  /** The replay buffer, filled with the offline data; DreamGym adds its synthetic transitions to it. */
  buffer: ReplayBuffer;
  model: ExperienceModel;
  generator?: TaskGenerator;
  onIteration?: (report: IterationReport) => Promise<void> | void;
  signal?: AbortSignal;
  /** Continue a run from the state of its last finished iteration. */
  resume?: RunState;
}

export interface RunResult {
  method: RunConfig["method"];
  domain: RunConfig["domain"];
  algorithm: RunConfig["algorithm"];
  seed: number;
  untrained: EvaluationResult;
  final: EvaluationResult;
  realTransitions: number;
  syntheticTransitions: number;
  iterations: number;
  seconds: number;
  checkpoint: PolicyCheckpoint;
}

export function experienceSettings(config: RunConfig): ExperienceSettings {
  return {
    k: config.experience.k,
    historyWindow: config.experience.historyWindow,
    reasoning: config.experience.reasoning,
    ...(config.experience.offlineOnly ? { sources: ["offline" as const] } : {}),
  };
}

/**
 * A whole run of one method: DreamGym (synthetic iterations only: 0 real transitions), DreamGym-S2R (then real
 * iterations until the real budget is spent), real-env training (real iterations until the budget or the
 * iteration count), behaviour cloning on expert demonstrations, or the untrained policy. Every run is evaluated
 * on the same held-out real test tasks before and after, and every `evaluation.interval` iterations.
 */
export async function runTraining(config: RunConfig, deps: RunDeps): Promise<RunResult> {
  const started = performance.now();
  const { domain } = deps;
  const untrainedPolicy = () =>
    new LinearSoftmaxPolicy({ candidates: domain.candidateActions, seed: config.seed });
  const policy = deps.resume
    ? loadCheckpoint(deps.resume.policy, domain.candidateActions).policy
    : untrainedPolicy();
  const testTasks = domain.tasks("test", config.evaluation.episodes);
  const evaluate = (key: string, which = policy) =>
    evaluatePolicy(domain, which, testTasks, { greedy: config.evaluation.greedy, key });
  // A resumed run reports the same starting point as before its crash, not its checkpoint's success.
  const untrained = await evaluate("eval:untrained", deps.resume ? untrainedPolicy() : policy);
  let realTransitions = deps.resume?.realTransitions ?? 0;
  let syntheticTransitions = deps.resume?.syntheticTransitions ?? 0;
  let iterations = deps.resume?.iterations ?? 0;
  let generated: Task[] = deps.resume?.generated ?? [];

  if ((config.method === "bc" || config.warmStart === "bc") && !deps.resume) {
    const decisions = [];
    for (let i = 0; i < config.demonstrations; i++) {
      const task = domain.task("train", i % config.seedTasks);
      const episode = await rollout(domain.createEnvironment(), domain.expert(), task, domain.maxSteps);
      decisions.push(...replayDecisions(policy, task, episode.steps));
    }
    new BehaviourCloning(policy, { learningRate: config.learningRate * 2, seed: config.seed }).fit(decisions);
  }

  if (config.method === "dreamgym" || config.method === "dreamgym-s2r" || config.method === "real") {
    const learner: Learner =
      config.algorithm === "grpo"
        ? grpoLearner(policy, { learningRate: config.learningRate, seed: config.seed })
        : ppoLearner(policy, { learningRate: config.learningRate, seed: config.seed });
    if (deps.resume?.learner) learner.restore(deps.resume.learner);
    const values = deps.resume ? TaskValueTable.fromSnapshot(deps.resume.values) : new TaskValueTable();
    const seedTasks = domain.tasks("train", config.seedTasks);
    const settings = {
      tasksPerBatch: config.tasksPerBatch,
      groupSize: config.groupSize,
      lambda: config.curriculum.taskGeneration ? config.curriculum.lambda : 0,
      parentsPerIteration: config.curriculum.taskGeneration ? config.curriculum.parentsPerIteration : 0,
      variationsPerParent: config.curriculum.variationsPerParent,
      seed: config.seed,
    };
    const experience = experienceSettings(config);
    const initialState = (task: Task) => domain.createEnvironment().reset(task);
    const phases: { phase: "synthetic" | "real"; more: () => boolean }[] =
      config.method === "real"
        ? [
            {
              phase: "real",
              more: () => iterations < config.iterations && realTransitions < config.realTransitions,
            },
          ]
        : [
            { phase: "synthetic", more: () => iterations < config.iterations },
            ...(config.method === "dreamgym-s2r"
              ? [{ phase: "real" as const, more: () => realTransitions < config.realTransitions }]
              : []),
          ];
    for (const { phase, more } of phases) {
      const makeEnv =
        phase === "synthetic"
          ? () =>
              new SyntheticEnvironment(
                domain.name,
                deps.model,
                deps.buffer,
                experience,
                initialState,
                domain.maxSteps,
              )
          : () => domain.createEnvironment();
      while (more()) {
        deps.signal?.throwIfAborted();
        const result = await trainingIteration(
          {
            domain,
            policy,
            learner,
            makeEnv,
            source: phase,
            buffer: phase === "synthetic" ? deps.buffer : undefined,
            values,
            ...(deps.generator ? { generator: deps.generator } : {}),
          },
          settings,
          iterations,
          [...seedTasks, ...generated],
        );
        generated = [...generated, ...result.generated];
        if (phase === "real") realTransitions += result.transitions;
        else syntheticTransitions += result.transitions;
        iterations++;
        const due = iterations % config.evaluation.interval === 0;
        await deps.onIteration?.({
          phase,
          iteration: iterations,
          rolloutSuccess: result.rolloutSuccess,
          meanReward: result.meanReward,
          realTransitions,
          syntheticTransitions,
          taskStats: result.taskStats,
          update: result.update,
          generated: result.generated,
          episodes: result.episodes.map((e) => e.episode),
          ...(due ? { evaluation: await evaluate(`eval:it${iterations}`) } : {}),
          state: {
            iterations,
            realTransitions,
            syntheticTransitions,
            policy: saveCheckpoint(policy),
            values: values.snapshot(),
            generated,
            learner: learner.snapshot(),
          },
        });
      }
    }
  }

  const final = await evaluate("eval:final");
  return {
    method: config.method,
    domain: config.domain,
    algorithm: config.algorithm,
    seed: config.seed,
    untrained,
    final,
    realTransitions,
    syntheticTransitions,
    iterations,
    seconds: (performance.now() - started) / 1000,
    checkpoint: saveCheckpoint(policy),
  };
}
