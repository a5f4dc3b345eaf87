import type OpenAI from "openai";
import { z } from "zod";
import type { Usage } from "../types";
import { type BackoffPolicy, backoffDelay, retryAfterMs, sleep } from "./backoff";
import { type ClassifiedFailure, classifyFailure, isRetryable } from "./classify";
import { LlmAbortedError, LlmRequestError } from "./errors";
import type { Semaphore } from "./semaphore";
import type { LlmStats } from "./types";

type ChatBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * A chat completion as this project reads it. The SDK types the body but does not check it, and local servers
 * differ (no usage, null content, extra fields), so it is parsed like any other boundary.
 */
const CompletionBody = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1, "no choices"),
  usage: z
    .object({
      prompt_tokens: z.number().nonnegative().optional(),
      completion_tokens: z.number().nonnegative().optional(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
});

export interface TransportSettings {
  sdk: OpenAI;
  baseURL: string;
  timeoutMs: number;
  maxRetries: number;
  backoff: BackoffPolicy;
  random: () => number;
  semaphore: Semaphore;
  stats: Counters;
}

/** The counters the transport keeps; the semaphore measures the rest of LlmStats. */
export type Counters = Omit<LlmStats, "inFlight" | "maxInFlight" | "achievedConcurrency" | "lanes">;

export interface Sent {
  text: string;
  finishReason: string | null;
  refusal?: string;
  usage: Usage;
  servedModel?: string;
}

export type SendOutcome =
  | { ok: true; sent: Sent; requests: number; retries: number }
  | { ok: false; rejected: ClassifiedFailure; requests: number; retries: number };

function abortedBy(signal: AbortSignal | undefined, stats: Counters): LlmAbortedError {
  stats.aborted += 1;
  return new LlmAbortedError(signal?.reason);
}

/**
 * One chat completion, with the retry policy: up to maxRetries more attempts on 429, 5xx, timeouts and dropped
 * connections, waiting Retry-After (capped) or exponential backoff with jitter. The permit is held only while a
 * request is in flight, not while backing off. A rejected response_format comes back as a value, not an error,
 * because the caller answers it with a simpler request.
 */
export async function send(
  t: TransportSettings,
  body: ChatBody,
  signal?: AbortSignal,
  lane?: string,
): Promise<SendOutcome> {
  let requests = 0;
  let retries = 0;
  for (;;) {
    let response: unknown;
    try {
      response = await t.semaphore.run(
        () => {
          requests += 1;
          t.stats.requests += 1;
          return t.sdk.chat.completions.create(body, { signal, timeout: t.timeoutMs, maxRetries: 0 });
        },
        signal,
        lane,
      );
    } catch (error) {
      if (signal?.aborted) throw abortedBy(signal, t.stats);
      if (error instanceof LlmAbortedError) throw error;
      const failure = classifyFailure(error, body.response_format !== undefined);
      if (failure === undefined) throw error;
      if (failure.kind === "format-rejected") return { ok: false, rejected: failure, requests, retries };
      if (!isRetryable(failure.kind) || retries >= t.maxRetries) {
        t.stats.failures += 1;
        const tried = retries > 0 ? ` after ${requests} attempts` : "";
        throw new LlmRequestError(`${body.model} at ${t.baseURL}: ${failure.message}${tried}`, {
          model: body.model,
          baseURL: t.baseURL,
          status: failure.status,
          attempts: requests,
          retryable: isRetryable(failure.kind),
        });
      }
      const wait =
        retryAfterMs(failure.headers, t.backoff.retryAfterCapMs) ??
        backoffDelay(retries, t.backoff, t.random);
      retries += 1;
      t.stats.retries += 1;
      try {
        await sleep(wait, signal);
      } catch {
        throw abortedBy(signal, t.stats);
      }
      continue;
    }
    const parsed = CompletionBody.safeParse(response);
    if (!parsed.success) {
      t.stats.failures += 1;
      const why = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`);
      throw new LlmRequestError(
        `${body.model} at ${t.baseURL}: the response is not a chat completion (${why.join("; ")})`,
        {
          model: body.model,
          baseURL: t.baseURL,
          status: 200,
          attempts: requests,
          retryable: false,
        },
      );
    }
    const choice = parsed.data.choices[0]!;
    const usage = parsed.data.usage;
    t.stats.promptTokens += usage?.prompt_tokens ?? 0;
    t.stats.completionTokens += usage?.completion_tokens ?? 0;
    const cached = usage?.prompt_tokens_details?.cached_tokens ?? undefined;
    t.stats.cachedPromptTokens += cached ?? 0;
    return {
      ok: true,
      requests,
      retries,
      sent: {
        text: choice.message.content ?? "",
        finishReason: choice.finish_reason ?? null,
        ...(choice.message.refusal ? { refusal: choice.message.refusal } : {}),
        usage: {
          promptTokens: usage?.prompt_tokens ?? 0,
          completionTokens: usage?.completion_tokens ?? 0,
          ...(cached !== undefined ? { cachedPromptTokens: cached } : {}),
        },
        ...(parsed.data.model ? { servedModel: parsed.data.model } : {}),
      },
    };
  }
}
