import { OpenAIExperienceModel } from "@/core/experience/openaiModel";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import type { ExperienceModel } from "@/core/experience/types";
import type { ReplayBuffer } from "@/core/replay/buffer";
import { config as appConfig, type Config } from "@/env";
import type { Db } from "../db";
import { createLlm } from "../experience/backends";
import { createEmbedder } from "../replay/createEmbedder";
import { offlineBuffer, offlineTransitions } from "../replay/offlineBuffer";
import { type ExperienceVersion, settingsOf } from "./version";

export interface VersionModel {
  model: ExperienceModel;
  /** The domain's offline transitions, as a run retrieves its demonstrations from (replay/offlineBuffer). */
  buffer: ReplayBuffer;
}

/**
 * The endpoint's settings for a version: its own base URL where it names one. The configured API key goes only
 * to the configured endpoint; another URL is asked without it (local servers need none).
 */
export function endpointConfig(config: Config, baseURL: string | undefined): Config {
  if (!baseURL || baseURL === config.openai.baseURL) return config;
  const { apiKey: _kept, ...openai } = config.openai;
  return { ...config, openai: { ...openai, baseURL } };
}

/**
 * Builds the experience model a version names, for one domain, the way a run builds it (train/runDeps): the
 * embedded model learns the domain's offline transitions; an endpoint's model is asked through the shared client.
 */
export async function versionModel(
  db: Db,
  version: ExperienceVersion,
  domain: string,
): Promise<VersionModel> {
  const transitions = await offlineTransitions(db, domain);
  const buffer = await offlineBuffer(db, domain, await createEmbedder(appConfig()), transitions);
  const settings = settingsOf(version);
  if (version.backend === "embedded")
    return {
      model: new RetrievalExperienceModel(settings, OfflineMemory.fromTransitions(transitions)),
      buffer,
    };
  const llm = createLlm(endpointConfig(appConfig(), version.baseURL), version.model).withLane("experience");
  return { model: new OpenAIExperienceModel(llm, settings), buffer };
}
