import { blindTaskGenerator, trainInstructions } from "@/core/curriculum/blindVariations";
import { isCurriculumDomain } from "@/core/curriculum/domainGoals";
import { embeddedTaskGenerator } from "@/core/curriculum/embedded";
import type { TaskGenerator } from "@/core/curriculum/generator";
import { OpenAITaskGenerator } from "@/core/curriculum/openaiGenerator";
import { domainDeclarations, getRealDomain, isRealDomain, type RealDomainName } from "@/core/envs/registry";
import { isImportedDomain, type TrainingDomain } from "@/core/envs/trainingDomain";
import { oracleOn } from "@/core/experience/oracle";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import type { LlmClient } from "@/core/llm";
import type { RunConfig } from "@/core/train/config";
import { experienceSettings } from "@/core/train/experienceSettings";
import { runTaskAddresses } from "@/core/train/heldOut";
import { importedRunProblem } from "@/core/train/importedRun";
import { hasPhase } from "@/core/train/methods";
import { remoteRunProblem } from "@/core/train/remoteRun";
import type { RunDeps } from "@/core/train/run";
import { config as appConfig } from "@/env";
import type { Db } from "../db";
import { createExperienceModel, createLlm, createOutcomeJudge } from "../experience/backends";
import {
  defaultThreads,
  embeddedExperienceModel,
  ThreadedExperienceModel,
} from "../experience/threadedModel";
import { type LoadOptions, loadRealDomain } from "../remoteEnv/load";
import { remoteSpec } from "../remoteEnv/registry";
import { RemoteDomain } from "../remoteEnv/remoteDomain";
import { createEmbedder } from "../replay/createEmbedder";
import { loadImportedDomain } from "../replay/importedDomain";
import { offlineBuffer, offlineTransitions } from "../replay/offlineBuffer";
import { rolloutThreadData, ThreadRolloutPool } from "./rolloutThreads";

/**
 * The run's task generator. Blind (the default): the seed instructions alone, in any domain (an imported or remote
 * domain's are all its train tasks). Grounded: reads the built-in environment, with operators or an LLM.
 */
export function taskGenerator(config: RunConfig, domain: TrainingDomain, llm?: LlmClient): TaskGenerator {
  if (isImportedDomain(domain) || domain instanceof RemoteDomain)
    return blindTaskGenerator(domain.name, trainInstructions(domain));
  if (config.curriculum.generator === "blind")
    return blindTaskGenerator(
      domain.name,
      domain.tasks("train", config.seedTasks).map((t) => t.instruction),
    );
  if (!isCurriculumDomain(config.domain))
    throw new Error(
      `domain "${config.domain}" has no grounded task generator: set curriculum.generator to "blind"`,
    );
  if (config.backends.taskGenerator === "embedded") return embeddedTaskGenerator(config.domain);
  const model = appConfig().openai.models.taskGenerator;
  return new OpenAITaskGenerator(
    (llm ? llm.withModel(model) : createLlm(appConfig(), model)).withLane("task-generator"),
  );
}

/**
 * A run's dependencies, the one LLM client its openai backends share (for its counters), if any, and close(),
 * which stops the threads of an embedded experience model.
 */
export type BuiltRunDeps = Omit<RunDeps, "onIteration" | "signal"> & {
  llm?: LlmClient;
  close(): Promise<void>;
};

/**
 * Everything a run needs from the outside world, built from its config and only what its method uses (the
 * methods table): the replay buffer and experience model for a synthetic phase, the task generator when the
 * curriculum writes variations. A real-env or cloning run therefore needs no offline data. `storing`: the run's
 * iterations are written on a writer thread (the worker's train job).
 */
export async function runDeps(
  db: Db,
  config: RunConfig,
  options: { storing?: boolean; load?: LoadOptions } = {},
): Promise<BuiltRunDeps> {
  const closers: (() => Promise<void>)[] = [];
  const remote = isRealDomain(config.domain) ? null : await remoteSpec(db, config.domain);
  const remoteProblem = remote ? remoteRunProblem(config, remote) : null;
  if (remoteProblem) throw new Error(remoteProblem);
  const domain =
    (await loadRealDomain(db, config.domain, runTaskAddresses(config), options.load)) ??
    (await loadImportedDomain(db, config.domain));
  const problem = isImportedDomain(domain) ? importedRunProblem(config) : null;
  if (problem) throw new Error(problem);
  const deps: BuiltRunDeps = {
    domain,
    ...(config.evaluation.groundTruth ? { groundTruth: getRealDomain(config.evaluation.groundTruth) } : {}),
    close: async () => {
      await Promise.all(closers.map((close) => close()));
    },
  };
  // An imported domain is evaluated in its synthetic environment, whatever the method.
  const synthetic = hasPhase(config.method, "synthetic") || isImportedDomain(deps.domain);
  // One client, so that the experience model and the task generator share one in-flight limit, fairly.
  const usesOpenai =
    (synthetic && config.backends.experience === "openai") ||
    (config.curriculum.taskGeneration && config.backends.taskGenerator === "openai");
  if (usesOpenai) deps.llm = createLlm(appConfig(), appConfig().openai.models.experience);
  if (synthetic) {
    // An imported domain has read its logs already: its train logs are the buffer.
    const transitions = isImportedDomain(domain)
      ? domain.trainSteps()
      : await offlineTransitions(db, config.domain);
    const buffer = await offlineBuffer(db, config.domain, await createEmbedder(appConfig()), transitions);
    deps.buffer = buffer;
    const settings = experienceSettings(config);
    if (config.backends.experience === "embedded") {
      // The embedded model's counterpart of being trained on the offline trajectories.
      const memory = OfflineMemory.fromTransitions(buffer.transitions(), domainDeclarations(config.domain));
      // A storing run's writer thread takes the second core: a prediction thread beside it slows the job
      // (rollouts bench, 2 cores: 592 stored transitions/s without one, 479 with).
      const threads = appConfig().worker.threads ?? (options.storing ? 0 : defaultThreads());
      const rolloutThreads = appConfig().worker.rolloutThreads;
      // Rollout threads play whole episodes where they can (the same episodes: rolloutThreads.ts); the main
      // thread then makes its own predictions.
      const served = rolloutThreads > 0 ? rolloutThreadsServe(config, domain) : undefined;
      const pooled = served !== undefined;
      if (served) {
        const pool = new ThreadRolloutPool(
          rolloutThreadData(served, settings, transitions, memory, config.seedTasks),
          rolloutThreads,
          config.rollouts.concurrency,
        );
        closers.push(() => pool.close());
        deps.rollouts = pool;
      }
      const model = embeddedExperienceModel(settings, pooled ? 0 : threads, memory);
      if (model instanceof ThreadedExperienceModel) closers.push(() => model.close());
      deps.model = model;
    } else {
      deps.model = createExperienceModel(appConfig(), settings, config.backends.experience, deps.llm);
    }
  }
  if (config.curriculum.taskGeneration) deps.generator = taskGenerator(config, deps.domain, deps.llm);
  if (config.evaluation.judge) deps.outcomeJudge = createOutcomeJudge(appConfig(), deps.llm);
  return deps;
}

/**
 * The domain rollout threads rebuild, when they can play a run's synthetic episodes exactly as the main thread
 * would (else undefined): a built-in domain (a thread rebuilds it by name), the embedded experience model and embedder (deterministic, no shared client),
 * and offline-only retrieval (the buffer a thread copies never changes during the run, as it would when the run's
 * synthetic or real transitions join it: experience.enrichBuffer, experimental.learnFromReal). The oracle diagnostic's runs stay on the main thread, where
 * the real environment beside the model is.
 */
function rolloutThreadsServe(config: RunConfig, domain: TrainingDomain): RealDomainName | undefined {
  const exact =
    !isImportedDomain(domain) &&
    config.backends.experience === "embedded" &&
    appConfig().backends.embedding === "embedded" &&
    !config.experience.enrichBuffer &&
    !config.experimental.learnFromReal &&
    !oracleOn(config.experimental.oracle);
  return exact && isRealDomain(domain.name) ? domain.name : undefined;
}
