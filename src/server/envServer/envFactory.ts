/**
 * Environments for the server's episodes, built the way a worker run builds its own (train/runDeps.ts): the real
 * one, or SyntheticEnvironment with the experience model and the domain's offline replay buffer under the run's
 * experience settings (k, history window, reasoning, sources, pessimism: the paper's ablation switches). Buffers
 * and models are built once per domain and per settings, and shared by every session.
 */
import type { RealDomain } from "@/core/envs/domain";
import { getRealDomain } from "@/core/envs/registry";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { SyntheticEnvironment } from "@/core/experience/synthetic";
import type { ExperienceModel, ExperienceSettings } from "@/core/experience/types";
import type { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import type { RunConfig } from "@/core/train/config";
import { experienceSettings } from "@/core/train/run";
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
import { offlineBuffer } from "../train/offlineBuffer";
import { EnvServerError } from "./errors";
import type { EnvMode } from "./protocol";

export interface BuiltEnv {
  domain: RealDomain;
  env: Environment;
  /** Synthetic mode: the real environment, stepped with the same actions for the real answer (realCheck.ts). */
  shadow?: Environment;
}

export class EnvFactory {
  private readonly buffers = new Map<string, Promise<MemoryReplayBuffer>>();
  private readonly models = new Map<string, ExperienceModel>();

  constructor(
    private readonly db: Db,
    /** Threads of the embedded experience model; the worker's setting by default. */
    private readonly threads = appConfig().worker.threads ?? defaultThreads(),
  ) {}

  async create(domainName: string, mode: EnvMode, config: RunConfig): Promise<BuiltEnv> {
    const domain = getRealDomain(domainName);
    if (mode === "real") return { domain, env: domain.createEnvironment() };
    const settings = experienceSettings(config);
    const buffer = await this.buffer(domain.name);
    const model = this.model(settings, config, domain.name, buffer);
    const initialState = (task: Task) => domain.createEnvironment().reset(task);
    return {
      domain,
      env: new SyntheticEnvironment(domain.name, model, buffer, settings, initialState, domain.maxSteps),
      shadow: domain.createEnvironment(),
    };
  }

  /** Builds what the synthetic environment of a domain needs before the first client waits for it. */
  async warm(domainName: string): Promise<void> {
    await this.buffer(getRealDomain(domainName).name);
  }

  private buffer(domain: string): Promise<MemoryReplayBuffer> {
    let buffer = this.buffers.get(domain);
    if (!buffer) {
      buffer = (async () => offlineBuffer(this.db, domain, await createEmbedder(appConfig())))();
      this.buffers.set(domain, buffer);
      // A failure (no offline data yet) is not remembered: the next reset tries again.
      buffer.catch(() => this.buffers.delete(domain));
    }
    return buffer.catch((error: Error) => {
      throw new EnvServerError("EXECUTION_ERROR", `the synthetic ${domain} environment: ${error.message}`);
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
              OfflineMemory.fromTransitions(buffer.transitions()),
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
