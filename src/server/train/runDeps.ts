import { embeddedTaskGenerator } from "@/core/curriculum/embedded";
import type { TaskGenerator } from "@/core/curriculum/generator";
import { OpenAITaskGenerator } from "@/core/curriculum/openaiGenerator";
import { getRealDomain } from "@/core/envs/registry";
import type { RunConfig } from "@/core/train/config";
import { hasPhase } from "@/core/train/methods";
import type { RunDeps } from "@/core/train/run";
import { experienceSettings } from "@/core/train/run";
import { config as appConfig } from "@/env";
import type { Db } from "../db";
import { createExperienceModel, createLlm } from "../experience/backends";
import { createEmbedder } from "../replay/createEmbedder";
import { offlineBuffer } from "./offlineBuffer";

export function taskGenerator(config: RunConfig): TaskGenerator {
  if (config.backends.taskGenerator === "embedded") return embeddedTaskGenerator(config.domain);
  return new OpenAITaskGenerator(createLlm(appConfig(), appConfig().openai.models.taskGenerator));
}

/**
 * Everything a run needs from the outside world, built from its config and only what its method uses (the
 * methods table): the replay buffer and experience model for a synthetic phase, the task generator when the
 * curriculum writes variations. A real-env or cloning run therefore needs no offline data.
 */
export async function runDeps(db: Db, config: RunConfig): Promise<Omit<RunDeps, "onIteration" | "signal">> {
  const deps: Omit<RunDeps, "onIteration" | "signal"> = { domain: getRealDomain(config.domain) };
  if (hasPhase(config.method, "synthetic")) {
    deps.buffer = await offlineBuffer(db, config.domain, await createEmbedder(appConfig()));
    deps.model = createExperienceModel(appConfig(), experienceSettings(config), config.backends.experience);
  }
  if (config.curriculum.taskGeneration) deps.generator = taskGenerator(config);
  return deps;
}
