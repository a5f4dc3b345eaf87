import { TaskValueTable } from "../curriculum/valueTable";
import { saveCheckpoint } from "../policy/checkpoint";
import type { Task, TrajectorySource, Transition } from "../types";
import { bufferJoin, restoreBuffer } from "./bufferTransitions";
import type { RunConfig } from "./config";
import type { EvaluationResult } from "./evaluate";
import { type IterationDeps, type IterationSettings, trainingIteration } from "./iteration";
import { grpoLearner, type Learner, ppoLearner } from "./learner";
import { METHODS, type Phase, type PhaseSpec, phaseContinues } from "./methods";
import type { RunContext } from "./runContext";
import type { RunDeps, RunState } from "./runTypes";

/** A run's transition and iteration counters: where its phases are. */
export interface Counters {
  iterations: number;
  realTransitions: number;
  syntheticTransitions: number;
}

/** The last evaluation point reached, with the synthetic half of the gap. */
export interface Evaluated {
  iterations: number;
  result: EvaluationResult;
  simulated: EvaluationResult | undefined;
}

/** GRPO or PPO with every knob from the run's config. `reference` anchors GRPO's KL penalty. */
export function learnerFor(
  config: RunConfig,
  ctx: Pick<RunContext, "policy">,
  reference?: RunContext["policy"],
): Learner {
  const shared = { learningRate: config.learningRate, seed: config.seed };
  if (config.algorithm === "grpo") return grpoLearner(ctx.policy, { ...config.grpo, ...shared }, reference);
  return ppoLearner(ctx.policy, { ...config.ppo, ...shared });
}

/**
 * Each phase of the method (methods.ts) until its end, one iteration at a time (iteration.ts): the curriculum
 * picks the batch, the phase's environment plays each task's group, the policy updates, task values and
 * variations follow. After each iteration the run is evaluated when due and reported whole (`onIteration`), with
 * the state to resume from. ARCHITECTURE.md "One iteration".
 */
export async function trainPhases(
  config: RunConfig,
  deps: RunDeps,
  ctx: RunContext,
): Promise<{ counters: Counters; evaluated?: Evaluated }> {
  const { resume } = deps;
  const counters: Counters = {
    iterations: resume?.iterations ?? 0,
    realTransitions: resume?.realTransitions ?? 0,
    syntheticTransitions: resume?.syntheticTransitions ?? 0,
  };
  const spec = METHODS[config.method];
  if (spec.phases.length === 0) return { counters };
  const learner = await startLearner(config, deps, ctx);
  // A resumed run's buffer holds the offline data only: what its finished iterations added comes back first.
  if (resume && deps.storedEpisodes) await restoreBuffer(config, deps, await deps.storedEpisodes());
  let values = resume ? TaskValueTable.fromSnapshot(resume.values) : new TaskValueTable();
  let generated: Task[] = resume?.generated ?? [];
  const seedTasks = deps.domain.tasks("train", config.seedTasks);
  let evaluated: Evaluated | undefined;
  for (const phaseSpec of spec.phases) {
    // A real phase after a synthetic one starts its task values from the real rewards (a run resumed inside it
    // keeps what it has): a task whose synthetic rewards vary may be settled in the real environment.
    if (phaseSpec.phase === "real" && spec.phases[0]?.phase === "synthetic" && counters.realTransitions === 0)
      values = new TaskValueTable();
    while (phaseContinues(phaseSpec, config, counters)) {
      deps.signal?.throwIfAborted();
      const source = turnOf(config, phaseSpec, counters);
      const result = await trainingIteration(
        iterationDeps(config, deps, ctx, { learner, values, source, realSoFar: counters.realTransitions }),
        iterationSettings(config),
        counters.iterations,
        playablePool(deps.domain, source, [...seedTasks, ...generated]),
      );
      generated = [...generated, ...result.generated];
      counters[source === "real" ? "realTransitions" : "syntheticTransitions"] += result.transitions;
      counters.iterations++;
      const due = counters.iterations % config.evaluation.interval === 0;
      const evaluation = due ? await ctx.evaluate(`eval:it${counters.iterations}`) : undefined;
      const simulated = due ? await ctx.simulate(`eval:it${counters.iterations}`) : undefined;
      if (evaluation) evaluated = { iterations: counters.iterations, result: evaluation, simulated };
      const state: RunState = {
        ...counters,
        policy: saveCheckpoint(ctx.policy),
        values: values.snapshot(),
        generated,
        learner: learner.snapshot(),
      };
      await deps.onIteration?.({
        phase: source,
        iteration: counters.iterations,
        rolloutSuccess: result.rolloutSuccess,
        meanReward: result.meanReward,
        realTransitions: counters.realTransitions,
        syntheticTransitions: counters.syntheticTransitions,
        taskStats: result.taskStats,
        update: result.update,
        learningRate: config.learningRate,
        generated: result.generated,
        episodes: result.episodes.map((e) => e.episode),
        ...(evaluation ? { evaluation } : {}),
        ...(simulated ? { simulated } : {}),
        state,
      });
    }
  }
  return { counters, ...(evaluated ? { evaluated } : {}) };
}

/** The learner, restored when resuming; GRPO's KL penalty anchored to the policy RL started from. */
async function startLearner(config: RunConfig, deps: RunDeps, ctx: RunContext): Promise<Learner> {
  const anchored = config.algorithm === "grpo" && config.grpo.klBeta > 0;
  const reference = anchored ? (deps.resume ? await ctx.startingPolicy() : ctx.policy.clone()) : undefined;
  const learner = learnerFor(config, ctx, reference);
  if (deps.resume?.learner) learner.restore(deps.resume.learner);
  return learner;
}

/**
 * Where this iteration plays: its phase's environment, except that an interleaved DreamGym-S2R run
 * (experimental.realInterleave n) plays every (n+1)th iteration of its synthetic phase in the real environment
 * while its real budget lasts (decided by the iteration count, so a resumed run takes the same turns).
 */
function turnOf(config: RunConfig, phaseSpec: PhaseSpec, counters: Counters): Phase {
  const { phases } = METHODS[config.method];
  const interleaves = phases.some((p) => p.phase === "real") && config.experimental.realInterleave > 0;
  const realTurn =
    phaseSpec.phase === "synthetic" &&
    interleaves &&
    counters.realTransitions < config.realTransitions &&
    (counters.iterations + 1) % (config.experimental.realInterleave + 1) === 0;
  return realTurn ? "real" : phaseSpec.phase;
}

function iterationSettings(config: RunConfig): IterationSettings {
  const writesVariations = config.curriculum.taskGeneration;
  return {
    tasksPerBatch: config.tasksPerBatch,
    groupSize: config.groupSize,
    lambda: writesVariations ? config.curriculum.lambda : 0,
    parentsPerIteration: writesVariations ? config.curriculum.parentsPerIteration : 0,
    variationsPerParent: config.curriculum.variationsPerParent,
    seed: config.seed,
    concurrency: config.rollouts.concurrency,
  };
}

/** What one iteration plays in and writes to, by where it plays. */
function iterationDeps(
  config: RunConfig,
  deps: RunDeps,
  ctx: RunContext,
  turn: { learner: Learner; values: TaskValueTable; source: Phase; realSoFar: number },
): IterationDeps {
  const { source } = turn;
  const synthetic = source === "synthetic";
  if (synthetic && !ctx.syntheticEnv)
    throw new Error(
      `method ${config.method} has a synthetic phase: it needs an experience model and a replay buffer`,
    );
  // Synthetic rollouts join the buffer when the run enriches it (otherwise retrieval could never return them, and
  // adding them costs a fifteenth of the loop); real ones when the model learns them (bufferTransitions.ts).
  const join = bufferJoin(config, source);
  const buffer =
    join === "add-and-learn"
      ? {
          add: async (transitions: Transition[]) => {
            await deps.buffer?.add(transitions);
            deps.model?.learn?.(transitions);
          },
        }
      : join === "add"
        ? deps.buffer
        : undefined;
  return {
    domain: deps.domain,
    policy: ctx.policy,
    learner: turn.learner,
    makeEnv: synthetic ? (ctx.syntheticEnv as NonNullable<RunContext["syntheticEnv"]>) : ctx.realEnv,
    source,
    ...(buffer ? { buffer } : {}),
    ...(synthetic && deps.rollouts ? { pool: deps.rollouts } : {}),
    values: turn.values,
    ...(source === "real" ? { transitionBudget: config.realTransitions - turn.realSoFar } : {}),
    ...(config.curriculum.taskGeneration && deps.generator ? { generator: deps.generator } : {}),
  };
}

/**
 * The tasks a phase's environment can play: a real phase only those its real environment has (RealDomain.playable;
 * where a domain does not say, the tasks with a goal it can score, so not the blind generator's variations).
 */
function playablePool(domain: RunDeps["domain"], source: TrajectorySource, pool: Task[]): Task[] {
  if (source !== "real") return pool;
  if (!("playable" in domain) || !domain.playable) return pool.filter((task) => task.goal !== undefined);
  const { playable } = domain;
  return pool.filter((task) => playable.call(domain, task));
}
