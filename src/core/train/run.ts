import type { TaskGenerator } from "../curriculum/generator";
import type { TaskIterationStats } from "../curriculum/valueTable";
import { TaskValueTable, type TaskValueTableSnapshot } from "../curriculum/valueTable";
import type { RealDomain } from "../envs/domain";
import { isImportedDomain, type TrainingDomain } from "../envs/trainingDomain";
import type { OutcomeJudge } from "../experience/openaiOutcomeJudge";
import { oracleOn } from "../experience/oracle";
import { SyntheticEnvironment } from "../experience/synthetic";
import type { ExperienceModel, ExperienceSettings } from "../experience/types";
import { loadCheckpoint, type PolicyCheckpoint, saveCheckpoint } from "../policy/checkpoint";
import { LinearPolicy } from "../policy/linearPolicy";
import { replayDecisions } from "../policy/replayDecisions";
import type { ReplayBuffer } from "../replay/buffer";
import { BehaviourCloning } from "../rl/bc";
import type { UpdateStats } from "../rl/stats";
import { type Episode, rollout } from "../rollout";
import { type Environment, REAL_ENV_SOURCES, type Task, type Transition } from "../types";
import type { RunConfig } from "./config";
import { type EvaluationResult, evaluatePolicy } from "./evaluate";
import { heldOutTasks } from "./heldOut";
import { importedRunProblem } from "./importedRun";
import { trainingIteration } from "./iteration";
import { grpoLearner, type Learner, type LearnerState, ppoLearner } from "./learner";
import { clones, METHODS, phaseContinues, phaseFraction, trainedWith } from "./methods";
import { proxyEvaluation } from "./proxyEvaluation";
import type { RolloutPool } from "./rolloutPool";

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
  /** The Adam step size of this iteration's update (its phase's, annealed by learningRateAnneal, warmed up by learningRateWarmup). */
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

export function experienceSettings(config: RunConfig): ExperienceSettings {
  return {
    k: config.experience.k,
    historyWindow: config.experience.historyWindow,
    reasoning: config.experience.reasoning,
    // What the real environment produced: the offline logs, and the run's own real transitions when it learns them.
    ...(config.experience.offlineOnly
      ? { sources: config.experience.learnFromReal ? [...REAL_ENV_SOURCES] : ["offline" as const] }
      : {}),
    ...(config.experience.pessimism.mode !== "off" ? { pessimism: config.experience.pessimism } : {}),
    ...(oracleOn(config.experience.oracle) ? { oracle: config.experience.oracle } : {}),
  };
}

/** The share of its step a synthetic iteration takes during the warm-up (config.learningRateWarmup). */
export function warmedUp(warmup: number, iteration: number): number {
  return warmup > 0 ? Math.min(1, (iteration + 1) / warmup) : 1;
}

/** GRPO or PPO with every knob from the run's config. `reference` anchors GRPO's KL penalty. */
export function learnerFor(config: RunConfig, policy: LinearPolicy, reference?: LinearPolicy): Learner {
  const shared = { learningRate: config.learningRate, seed: config.seed };
  if (config.algorithm === "grpo") return grpoLearner(policy, { ...config.grpo, ...shared }, reference);
  return ppoLearner(policy, { ...config.ppo, ...shared });
}

/**
 * A whole run of one method, as the methods table (methods.ts) describes it: behaviour cloning first when the
 * method or its warm start asks, then each phase's iterations (synthetic: the experience model grounded in the
 * replay buffer; real: the real environment) until the phase's end. Every run is evaluated on the same held-out
 * real test tasks before and after, and every `evaluation.interval` iterations. ARCHITECTURE.md "One iteration".
 */
export async function runTraining(config: RunConfig, deps: RunDeps): Promise<RunResult> {
  const started = performance.now();
  const { domain } = deps;
  const spec = METHODS[config.method];
  const imported = isImportedDomain(domain);
  const groundTruth = config.evaluation.groundTruth;
  if (groundTruth !== undefined && (!imported || deps.groundTruth?.name !== groundTruth))
    throw new Error(
      imported
        ? `evaluation.groundTruth "${groundTruth}": the run was not given that built-in domain`
        : `evaluation.groundTruth is for an imported copy of a built-in domain; "${domain.name}" is built in and evaluated in its real environment already`,
    );
  const problem = imported ? importedRunProblem(config) : null;
  if (problem) throw new Error(problem);
  if (config.evaluation.judge && !deps.outcomeJudge)
    throw new Error("evaluation.judge is on, but the run was given no outcome judge");
  const untrainedPolicy = () => new LinearPolicy({ candidates: domain.candidateActions, seed: config.seed });
  /** The policy RL starts from: blank, or behaviour-cloned. Deterministic, so a resumed run can rebuild it. */
  const startingPolicy = async () => {
    const start = untrainedPolicy();
    if (clones(config)) await behaviourClone(config, domain, start);
    return start;
  };
  const policy = deps.resume
    ? loadCheckpoint(deps.resume.policy, domain.candidateActions).policy
    : await startingPolicy();
  // Held-out tasks: the test split, or validation tasks for choosing settings (an imported domain has only its test logs).
  const testTasks = imported
    ? domain.tasks("test", config.evaluation.episodes)
    : heldOutTasks(domain, config.evaluation.tasks, config.evaluation.episodes);
  const syntheticEnv = (): (() => Environment) | undefined => {
    const { model, buffer } = deps;
    if (!model || !buffer) return undefined;
    const initialState = (task: Task) =>
      imported ? domain.initialState(task) : domain.createEnvironment().reset(task);
    const experience = experienceSettings(config);
    // The oracle diagnostic steps the real environment beside the model (experience/oracle.ts).
    const real = imported ? undefined : () => domain.createEnvironment();
    return () =>
      new SyntheticEnvironment(domain.name, model, buffer, experience, initialState, domain.maxSteps, real);
  };
  const options = (key: string) => ({
    greedy: config.evaluation.greedy,
    key,
    concurrency: config.rollouts.concurrency,
  });
  /** Real success on held-out test tasks; in an imported domain, the proxies of proxyEvaluation.ts instead. */
  const evaluate = (key: string, which = policy) => {
    if (!imported) return evaluatePolicy(domain, which, testTasks, options(key));
    const makeEnv = syntheticEnv();
    if (!makeEnv)
      throw new Error(
        `imported domain "${domain.name}" is evaluated in its synthetic environment: the run needs an experience model and a replay buffer`,
      );
    return proxyEvaluation(domain, which, testTasks, makeEnv, {
      ...options(key),
      ...(config.evaluation.judge && deps.outcomeJudge ? { judge: deps.outcomeJudge } : {}),
    });
  };
  const simulatedTasks = testTasks.slice(0, config.evaluation.simulated);
  // In an imported domain the evaluation itself is synthetic: there is no gap to measure.
  const measuresGap =
    !imported && spec.phases.some((p) => p.phase === "synthetic") && simulatedTasks.length > 0;
  /** The sim-to-real gap's other half: the policy on the same test tasks, in the synthetic environment. */
  const simulate = async (key: string): Promise<EvaluationResult | undefined> => {
    const makeEnv = measuresGap ? syntheticEnv() : undefined;
    if (!makeEnv) return undefined;
    return evaluatePolicy(domain, policy, simulatedTasks, { ...options(`sim:${key}`), makeEnv });
  };
  // The untrained figure is the blank policy's, before any cloning, for fresh and resumed runs alike.
  const untrained = await evaluate("eval:untrained", untrainedPolicy());
  let realTransitions = deps.resume?.realTransitions ?? 0;
  let syntheticTransitions = deps.resume?.syntheticTransitions ?? 0;
  let iterations = deps.resume?.iterations ?? 0;
  let generated: Task[] = deps.resume?.generated ?? [];
  /** The evaluation of the last iteration, when it was due: the final policy's, if nothing trained after it. */
  let lastEvaluation:
    | { iterations: number; result: EvaluationResult; simulated: EvaluationResult | undefined }
    | undefined;

  if (spec.phases.length > 0) {
    const reference =
      config.algorithm === "grpo" && config.grpo.klBeta > 0
        ? deps.resume
          ? await startingPolicy()
          : policy.clone()
        : undefined;
    const learner = learnerFor(config, policy, reference);
    if (deps.resume?.learner) learner.restore(deps.resume.learner);
    let values = deps.resume ? TaskValueTable.fromSnapshot(deps.resume.values) : new TaskValueTable();
    const seedTasks = domain.tasks("train", config.seedTasks);
    const writesVariations = config.curriculum.taskGeneration;
    if (writesVariations && !deps.generator)
      throw new Error(`run config asks for task generation, but no task generator was given`);
    const settings = {
      tasksPerBatch: config.tasksPerBatch,
      groupSize: config.groupSize,
      lambda: writesVariations ? config.curriculum.lambda : 0,
      parentsPerIteration: writesVariations ? config.curriculum.parentsPerIteration : 0,
      variationsPerParent: config.curriculum.variationsPerParent,
      seed: config.seed,
      concurrency: config.rollouts.concurrency,
    };
    const realEnv = (): Environment => {
      if (isImportedDomain(domain))
        throw new Error(`imported domain "${domain.name}" has no real environment`);
      return domain.createEnvironment();
    };
    const realSpec = spec.phases.find((p) => p.phase === "real");
    const synthetic = spec.phases.some((p) => p.phase === "synthetic");
    // DreamGym-S2R's real iterations during its synthetic phase (realInterleave), and what they teach the model.
    const interleave = realSpec && synthetic ? config.realInterleave : 0;
    const groundsModel = Boolean(realSpec && synthetic && config.experience.learnFromReal);
    const learnFromReal = {
      add: async (transitions: Transition[]) => {
        await deps.buffer?.add(transitions);
        deps.model?.learn?.(transitions);
      },
    };
    const realLearningRate = synthetic
      ? (config.realLearningRate ?? config.learningRate)
      : config.learningRate;
    for (const phaseSpec of spec.phases) {
      const { phase } = phaseSpec;
      const afterSynthetic = phase === "real" && spec.phases[0]?.phase === "synthetic";
      // Real task values start from the real rewards (a run resumed inside its real phase keeps what it has).
      if (afterSynthetic && config.curriculum.freshValuesForReal && realTransitions === 0)
        values = new TaskValueTable();
      let makeEnv: () => Environment = realEnv;
      if (phase === "synthetic") {
        const syntheticMaker = syntheticEnv();
        if (!syntheticMaker)
          throw new Error(
            `method ${config.method} has a synthetic phase: it needs an experience model and a replay buffer`,
          );
        makeEnv = syntheticMaker;
      }
      while (phaseContinues(phaseSpec, config, { iterations, realTransitions, syntheticTransitions })) {
        deps.signal?.throwIfAborted();
        const counters = { iterations, realTransitions, syntheticTransitions };
        // Every (n+1)th iteration of an interleaved S2R run is real, while its budget lasts.
        const realTurn =
          phase === "synthetic" &&
          interleave > 0 &&
          realTransitions < config.realTransitions &&
          (iterations + 1) % (interleave + 1) === 0;
        const source = realTurn ? "real" : phase;
        const turnSpec = realTurn && realSpec ? realSpec : phaseSpec;
        const learningRate =
          (source === "real" ? realLearningRate : config.learningRate) *
          (1 - config.learningRateAnneal * phaseFraction(turnSpec, config, counters)) *
          (source === "synthetic" ? warmedUp(config.learningRateWarmup, iterations) : 1);
        learner.setLearningRate(learningRate);
        // Real rollouts join the buffer when the model learns them. Synthetic ones join it only where retrieval may
        // return them (offlineOnly off): otherwise they could never be read, and adding them costs a fifteenth of
        // the loop.
        const learnsThem = source === "real" ? groundsModel : !config.experience.offlineOnly;
        const turnBuffer = !learnsThem ? undefined : source === "real" ? learnFromReal : deps.buffer;
        const result = await trainingIteration(
          {
            domain,
            policy,
            learner,
            makeEnv: realTurn ? realEnv : makeEnv,
            source,
            ...(turnBuffer ? { buffer: turnBuffer } : {}),
            ...(source === "synthetic" && deps.rollouts ? { pool: deps.rollouts } : {}),
            values,
            ...(source === "real" ? { transitionBudget: config.realTransitions - realTransitions } : {}),
            ...(writesVariations && deps.generator ? { generator: deps.generator } : {}),
          },
          settings,
          iterations,
          [...seedTasks, ...generated],
        );
        generated = [...generated, ...result.generated];
        if (source === "real") realTransitions += result.transitions;
        else syntheticTransitions += result.transitions;
        iterations++;
        const due = iterations % config.evaluation.interval === 0;
        const evaluation = due ? await evaluate(`eval:it${iterations}`) : undefined;
        const simulated = due ? await simulate(`eval:it${iterations}`) : undefined;
        if (evaluation) lastEvaluation = { iterations, result: evaluation, simulated };
        await deps.onIteration?.({
          phase: source,
          iteration: iterations,
          rolloutSuccess: result.rolloutSuccess,
          meanReward: result.meanReward,
          realTransitions,
          syntheticTransitions,
          taskStats: result.taskStats,
          update: result.update,
          learningRate,
          generated: result.generated,
          episodes: result.episodes.map((e) => e.episode),
          ...(evaluation ? { evaluation } : {}),
          ...(simulated ? { simulated } : {}),
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

  // The same policy evaluated twice with other samples would show two "final" figures for one run.
  const evaluatedLast = lastEvaluation?.iterations === iterations ? lastEvaluation : undefined;
  const final = evaluatedLast?.result ?? (await evaluate("eval:final"));
  const finalSimulated = evaluatedLast ? evaluatedLast.simulated : await simulate("eval:final");
  // The same weights acting on the built-in domain's own action candidates, on its real test tasks.
  const scoredForReal = deps.groundTruth
    ? await evaluatePolicy(
        deps.groundTruth,
        loadCheckpoint(saveCheckpoint(policy), deps.groundTruth.candidateActions).policy,
        deps.groundTruth.tasks("test", config.evaluation.episodes),
        options("eval:ground-truth"),
      )
    : undefined;
  return {
    method: config.method,
    domain: config.domain,
    algorithm: trainedWith(config),
    seed: config.seed,
    untrained,
    final,
    ...(finalSimulated ? { finalSimulated } : {}),
    ...(scoredForReal ? { groundTruth: scoredForReal } : {}),
    realTransitions,
    syntheticTransitions,
    iterations,
    seconds: (performance.now() - started) / 1000,
    checkpoint: saveCheckpoint(policy),
  };
}

/**
 * Behaviour cloning on `demonstrations` expert episodes: the expert's, played on the first seed tasks (cycling
 * through them); in an imported domain, its successful train logs (cycling through them).
 */
async function behaviourClone(
  config: RunConfig,
  domain: TrainingDomain,
  policy: LinearPolicy,
): Promise<void> {
  const decisions = [];
  if (isImportedDomain(domain)) {
    const logs = domain.successfulLogs("train");
    if (logs.length === 0)
      throw new Error(
        `imported domain "${domain.name}" has no successful train log to clone: import some, or set warmStart to none`,
      );
    for (let i = 0; i < config.demonstrations; i++) {
      const log = logs[i % logs.length]!;
      decisions.push(...replayDecisions(policy, log.task, log.steps));
    }
  } else {
    for (let i = 0; i < config.demonstrations; i++) {
      const task = domain.task("train", i % config.seedTasks);
      const episode = await rollout(domain.createEnvironment(), domain.expert(), task, domain.maxSteps);
      decisions.push(...replayDecisions(policy, task, episode.steps));
    }
  }
  new BehaviourCloning(policy, { ...config.bc, seed: config.seed }).fit(decisions);
}
