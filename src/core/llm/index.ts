export { type BackoffPolicy, DEFAULT_BACKOFF } from "./backoff";
export { createLlmClient, type LlmClient, type LlmClientOptions } from "./client";
export { LlmAbortedError, LlmReplyError, LlmRequestError, type LlmRequestFailure } from "./errors";
export { parseJsonReply } from "./jsonReply";
export { Semaphore } from "./semaphore";
export type {
  CallReport,
  ChatJsonOptions,
  ChatJsonResult,
  ChatMessage,
  CompleteOptions,
  Completion,
  JsonSchemaSpec,
  LlmStats,
  RepairMessages,
  ResponseFormatMode,
} from "./types";
