import type { LlmStats } from "@/core/llm";

/** What a run's model endpoint did for it: requests, the concurrency it achieved, and prompt tokens per step. */
export interface LlmReport {
  requests: number;
  retries: number;
  failures: number;
  invalidReplies: number;
  maxInFlight: number;
  achievedConcurrency: number;
  promptTokens: number;
  /** Prompt tokens per synthetic step: what prefix caching at the endpoint can save. */
  promptTokensPerStep: number | null;
  cachedPromptTokens: number;
  lanes: LlmStats["lanes"];
}

export function llmReport(stats: LlmStats, syntheticSteps: number): LlmReport {
  return {
    requests: stats.requests,
    retries: stats.retries,
    failures: stats.failures,
    invalidReplies: stats.invalidReplies,
    maxInFlight: stats.maxInFlight,
    achievedConcurrency: Number(stats.achievedConcurrency.toFixed(2)),
    promptTokens: stats.promptTokens,
    promptTokensPerStep: syntheticSteps > 0 ? Math.round(stats.promptTokens / syntheticSteps) : null,
    cachedPromptTokens: stats.cachedPromptTokens,
    lanes: stats.lanes,
  };
}
