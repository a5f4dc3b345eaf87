import { OpenAIJudge } from "@/core/experience/openaiJudge";
import { OpenAIExperienceModel } from "@/core/experience/openaiModel";
import { OpenAIOutcomeJudge } from "@/core/experience/openaiOutcomeJudge";
import { OpenAITeacher } from "@/core/experience/openaiTeacher";
import type { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { RetrievalTeacher } from "@/core/experience/retrieval/retrievalTeacher";
import type { ExperienceModel, ExperienceSettings, Judge, Teacher } from "@/core/experience/types";
import { createLlmClient, type LlmClient } from "@/core/llm";
import type { Config } from "@/env";

type Backend = "embedded" | "openai";

/**
 * One client per endpoint for a whole run: the experience model, teacher and judge share its concurrency limit
 * and token counters (withModel switches the model only).
 */
/** Whether an OpenAI-compatible endpoint is configured at all. */
export function hasOpenaiEndpoint(config: Config): boolean {
  return Boolean(config.openai.baseURL || config.openai.apiKey);
}

export function createLlm(config: Config, model: string): LlmClient {
  if (!hasOpenaiEndpoint(config)) {
    throw new Error(
      "an openai backend is configured but neither openai.baseURL (OPENAI_BASE_URL) nor openai.apiKey (OPENAI_API_KEY) is set",
    );
  }
  return createLlmClient({
    ...(config.openai.baseURL ? { baseURL: config.openai.baseURL } : {}),
    ...(config.openai.apiKey ? { apiKey: config.openai.apiKey } : {}),
    model,
    timeoutMs: config.openai.timeoutMs,
    maxRetries: config.openai.maxRetries,
    concurrency: config.openai.concurrency,
    ...(config.openai.backoffMs !== undefined ? { backoff: { baseMs: config.openai.backoffMs } } : {}),
  });
}

export function createExperienceModel(
  config: Config,
  settings: ExperienceSettings,
  backend: Backend = config.backends.experience,
  llm?: LlmClient,
  memory?: OfflineMemory,
): ExperienceModel {
  if (backend === "embedded") return new RetrievalExperienceModel(settings, memory);
  const model = config.openai.models.experience;
  return new OpenAIExperienceModel(
    (llm ? llm.withModel(model) : createLlm(config, model)).withLane("experience"),
    settings,
  );
}

export function createTeacher(
  config: Config,
  settings: ExperienceSettings,
  backend: Backend = config.backends.teacher,
  llm?: LlmClient,
): Teacher {
  if (backend === "embedded") return new RetrievalTeacher();
  const model = config.openai.models.teacher;
  return new OpenAITeacher(
    (llm ? llm.withModel(model) : createLlm(config, model)).withLane("teacher"),
    settings,
  );
}

/** The judge is an LLM by nature: there is no embedded judge. */
export function createJudge(config: Config, settings: ExperienceSettings, llm?: LlmClient): Judge {
  const model = config.openai.models.judge;
  return new OpenAIJudge((llm ? llm.withModel(model) : createLlm(config, model)).withLane("judge"), settings);
}

/** The judge of an imported domain's evaluation episodes (evaluation.judge): the endpoint's judge model. */
export function createOutcomeJudge(config: Config, llm?: LlmClient): OpenAIOutcomeJudge {
  const model = config.openai.models.judge;
  return new OpenAIOutcomeJudge((llm ? llm.withModel(model) : createLlm(config, model)).withLane("judge"));
}
