import type { RealDomain } from "../envs/domain";
import { isImportedDomain } from "../envs/trainingDomain";
import { SyntheticEnvironment } from "../experience/synthetic";
import { loadCheckpoint, saveCheckpoint } from "../policy/checkpoint";
import { LinearPolicy } from "../policy/linearPolicy";
import type { Environment, Observation, Task } from "../types";
import { behaviourClone } from "./behaviourClone";
import type { RunConfig } from "./config";
import { type EvaluationResult, evaluatePolicy } from "./evaluate";
import { experienceSettings } from "./experienceSettings";
import { heldOutTasks } from "./heldOut";
import { clones, METHODS } from "./methods";
import { proxyEvaluation } from "./proxyEvaluation";
import { proxyTrust } from "./proxyTrust";
import type { RunDeps } from "./runTypes";
import { startStates } from "./startState";

/** What every phase of a run and its evaluations share: the policy, its environments and its held-out tasks. */
export interface RunContext {
  /** The policy being trained: blank, behaviour-cloned, or the resumed run's. */
  policy: LinearPolicy;
  /** A blank policy: the untrained figure's. */
  blankPolicy(): LinearPolicy;
  /** The policy RL starts from: blank, or behaviour-cloned. Deterministic, so a resumed run can rebuild it. */
  startingPolicy(): Promise<LinearPolicy>;
  realEnv(): Environment;
  /** The synthetic environment (the experience model grounded in the replay buffer), when the run has both. */
  syntheticEnv: (() => Environment) | undefined;
  /** Real success on held-out tasks; in an imported domain, the proxies of proxyEvaluation.ts instead. */
  evaluate(key: string, which?: LinearPolicy): Promise<EvaluationResult>;
  /** The sim-to-real gap's other half: the policy on the same held-out tasks, in the synthetic environment. */
  simulate(key: string): Promise<EvaluationResult | undefined>;
  /** An imported copy of a built-in domain: the policy once on that domain's real test tasks. */
  groundTruth(): Promise<EvaluationResult | undefined>;
}

export async function runContext(config: RunConfig, deps: RunDeps): Promise<RunContext> {
  const { domain } = deps;
  const imported = isImportedDomain(domain);
  const blankPolicy = () => new LinearPolicy({ candidates: domain.candidateActions, seed: config.seed });
  const startingPolicy = async () => {
    const start = blankPolicy();
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
  const syntheticEnv = syntheticEnvironment(config, deps);
  const options = (key: string) => ({
    greedy: config.evaluation.greedy,
    key,
    concurrency: config.rollouts.concurrency,
  });
  const simulatedTasks = testTasks.slice(0, config.evaluation.simulated);
  // In an imported domain the evaluation itself is synthetic: there is no gap to measure.
  const measuresGap =
    !imported &&
    METHODS[config.method].phases.some((p) => p.phase === "synthetic") &&
    simulatedTasks.length > 0;
  const trust = isImportedDomain(domain) ? proxyTrust(domain, deps, config) : undefined;
  return {
    policy,
    blankPolicy,
    startingPolicy,
    realEnv: () => {
      if (isImportedDomain(domain))
        throw new Error(`imported domain "${domain.name}" has no real environment`);
      return domain.createEnvironment();
    },
    syntheticEnv,
    evaluate: async (key, which = policy) => {
      if (!imported) return evaluatePolicy(domain, which, testTasks, options(key));
      if (!syntheticEnv)
        throw new Error(
          `imported domain "${domain.name}" is evaluated in its synthetic environment: the run needs an experience model and a replay buffer`,
        );
      const result = await proxyEvaluation(domain, which, testTasks, syntheticEnv, {
        ...options(key),
        ...(config.evaluation.judge && deps.outcomeJudge ? { judge: deps.outcomeJudge } : {}),
      });
      return trust ? trust(key, result) : result;
    },
    simulate: async (key) => {
      if (!measuresGap || !syntheticEnv) return undefined;
      return evaluatePolicy(domain, policy, simulatedTasks, {
        ...options(`sim:${key}`),
        makeEnv: syntheticEnv,
      });
    },
    groundTruth: async () => {
      const real: RealDomain | undefined = deps.groundTruth;
      if (!real) return undefined;
      // The same weights acting on the built-in domain's own action candidates, on its real test tasks.
      return evaluatePolicy(
        real,
        loadCheckpoint(saveCheckpoint(policy), real.candidateActions).policy,
        real.tasks("test", config.evaluation.episodes),
        options("eval:ground-truth"),
      );
    },
  };
}

/** The experience model grounded in the replay buffer, behind `Environment`; undefined without both. */
function syntheticEnvironment(config: RunConfig, deps: RunDeps): (() => Environment) | undefined {
  const { model, buffer, domain } = deps;
  if (!model || !buffer) return undefined;
  // An imported or remote domain keeps its tasks' first states (a variation starts from its root's).
  const initialState =
    isImportedDomain(domain) || domain.initialState
      ? (task: Task) => (domain.initialState as (task: Task) => Promise<Observation>).call(domain, task)
      : startStates(domain, domain.tasks("train", config.seedTasks));
  const experience = experienceSettings(config);
  // The oracle diagnostic steps the real environment beside the model (experience/oracle.ts).
  const real = isImportedDomain(domain) ? undefined : () => domain.createEnvironment();
  return () =>
    new SyntheticEnvironment(domain.name, model, buffer, experience, initialState, domain.maxSteps, real);
}
