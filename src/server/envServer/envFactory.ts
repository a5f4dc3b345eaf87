/**
 * Environments for the server's episodes, built the way a worker run builds its own (train/runDeps.ts): the real
 * one, or SyntheticEnvironment with the experience model and the domain's offline replay buffer under the run's
 * experience settings (k, history window, reasoning, sources, pessimism: the paper's ablation switches). An
 * imported domain (logs only) has the synthetic one alone, starting where its logs start. Domains, buffers and
 * models are built once per domain and per settings, and shared by every session; a server therefore sees an
 * imported domain's logs as they were when it first played it.
 */
import type { RealDomain } from "@/core/envs/domain";
import { type ImportedDomain, NotTrainableError } from "@/core/envs/imported/importedDomain";
import { domainDeclarations, getRealDomain, isRealDomain } from "@/core/envs/registry";
import { isImportedDomain } from "@/core/envs/trainingDomain";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { SyntheticEnvironment } from "@/core/experience/synthetic";
import type { ExperienceModel, ExperienceSettings } from "@/core/experience/types";
import type { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import type { RunConfig } from "@/core/train/config";
import { experienceSettings } from "@/core/train/experienceSettings";
import type { Environment, Task } from "@/core/types";
import { config as appConfig } from "@/env";
import type { Db } from "../db";
import { createExperienceModel } from "../experience/backends";
import {
  defaultThreads,
  embeddedExperienceModel,
  ThreadedExperienceModel,
} from "../experience/threadedModel";
import { createEmbedder } from "../replay/createEmbedder";
import { loadImportedDomain } from "../replay/importedDomain";
import type { StoredTransition } from "../replay/lanceSchema";
import { offlineBuffer } from "../replay/offlineBuffer";
import { EnvServerError } from "./errors";
import type { EnvMode } from "./protocol";

/** A domain the server plays: built in, or imported with its logs as stored rows (the buffer's own). */
export type ServedDomain = RealDomain | ImportedDomain<StoredTransition>;

export interface BuiltEnv {
  domain: ServedDomain;
  env: Environment;
  /** Synthetic mode: the real environment, stepped with the same actions for the real answer (realCheck.ts). */
  shadow?: Environment;
}

export class EnvFactory {
  private readonly domains = new Map<string, Promise<ServedDomain>>();
  private readonly buffers = new Map<string, Promise<MemoryReplayBuffer>>();
  private readonly models = new Map<string, ExperienceModel>();

  constructor(
    private readonly db: Db,
    /** Threads of the embedded experience model; the worker's setting by default. */
    private readonly threads = appConfig().worker.threads ?? defaultThreads(),
  ) {}

  /** A built-in domain, or an imported one with enough logs to play; a clear refusal for anything else. */
  domain(name: string): Promise<ServedDomain> {
    if (isRealDomain(name)) return Promise.resolve(getRealDomain(name));
    let domain = this.domains.get(name);
    if (!domain) {
      domain = loadImportedDomain(this.db, name).catch((error: Error) => {
        this.domains.delete(name);
        throw error instanceof NotTrainableError
          ? new EnvServerError("VALIDATION_ERROR", error.message)
          : new EnvServerError("UNKNOWN_DOMAIN", error.message);
      });
      this.domains.set(name, domain);
    }
    return domain;
  }

  async create(domainName: string, mode: EnvMode, config: RunConfig): Promise<BuiltEnv> {
    const domain = await this.domain(domainName);
    if (mode === "real") {
      if (isImportedDomain(domain))
        throw new EnvServerError("VALIDATION_ERROR", noRealEnvironment(domain.name));
      return { domain, env: domain.createEnvironment() };
    }
    const settings = experienceSettings(config);
    const buffer = await this.buffer(domain);
    const model = this.model(settings, config, domain.name, buffer);
    const env = new SyntheticEnvironment(
      domain.name,
      model,
      buffer,
      settings,
      (task: Task) =>
        isImportedDomain(domain) ? domain.initialState(task) : domain.createEnvironment().reset(task),
      domain.maxSteps,
    );
    // The real environment answers the same actions beside the model's (realCheck.ts), where there is one.
    return isImportedDomain(domain) ? { domain, env } : { domain, env, shadow: domain.createEnvironment() };
  }

  /** Builds what the synthetic environment of a domain needs before the first client waits for it. */
  async warm(domainName: string): Promise<void> {
    await this.buffer(await this.domain(domainName));
  }

  private buffer(domain: ServedDomain): Promise<MemoryReplayBuffer> {
    let buffer = this.buffers.get(domain.name);
    if (!buffer) {
      // An imported domain has read its logs already: its train logs are the buffer, as in a worker run.
      const rows = isImportedDomain(domain) ? domain.trainSteps() : undefined;
      buffer = (async () => offlineBuffer(this.db, domain.name, await createEmbedder(appConfig()), rows))();
      this.buffers.set(domain.name, buffer);
      // A failure (no offline data yet) is not remembered: the next reset tries again.
      buffer.catch(() => this.buffers.delete(domain.name));
    }
    return buffer.catch((error: Error) => {
      throw new EnvServerError(
        "EXECUTION_ERROR",
        `the synthetic ${domain.name} environment: ${error.message}`,
      );
    });
  }

  private model(
    settings: ExperienceSettings,
    config: RunConfig,
    domain: string,
    buffer: MemoryReplayBuffer,
  ): ExperienceModel {
    const backend = config.backends.experience;
    // Only reasoning and the domain (what it learnt from the offline data) change the embedded model itself;
    // k, history and pessimism act in SyntheticEnvironment.
    const key =
      backend === "embedded"
        ? `embedded:${domain}:${settings.reasoning}`
        : `openai:${JSON.stringify(settings)}`;
    let model = this.models.get(key);
    if (!model) {
      model =
        backend === "embedded"
          ? embeddedExperienceModel(
              settings,
              this.threads,
              OfflineMemory.fromTransitions(buffer.transitions(), domainDeclarations(domain)),
            )
          : createExperienceModel(appConfig(), settings, backend);
      this.models.set(key, model);
    }
    return model;
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.models.values()].map((m) => (m instanceof ThreadedExperienceModel ? m.close() : undefined)),
    );
    this.models.clear();
  }
}

/** Why a real episode of an imported domain cannot be played. */
export function noRealEnvironment(domain: string): string {
  return `domain "${domain}" exists only as imported logs and has no real environment: play it in synthetic mode`;
}
