import OpenAI from "openai";
import type { Usage } from "../types";
import { type BackoffPolicy, DEFAULT_BACKOFF } from "./backoff";
import { LlmAbortedError } from "./errors";
import { type ParsedJson, parseJsonReply } from "./jsonReply";
import { Semaphore } from "./semaphore";
import { type Counters, send, type TransportSettings } from "./transport";
import type {
  CallReport,
  ChatJsonOptions,
  ChatJsonResult,
  ChatMessage,
  CompleteOptions,
  Completion,
  LlmStats,
  RepairMessages,
  ResponseFormatMode,
} from "./types";

export interface LlmClientOptions {
  /** Absent: api.openai.com. For vLLM, Ollama or llama.cpp, their /v1 URL. */
  baseURL?: string;
  /** Local servers need none; a placeholder is sent so that the SDK does not look for OPENAI_API_KEY. */
  apiKey?: string;
  model: string;
  /** Per HTTP attempt, not per call. */
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
  backoff?: Partial<BackoffPolicy>;
  /** Jitter source; tests pin it. */
  random?: () => number;
  /** The lane of the first client (withLane gives others); "default" when absent. */
  lane?: string;
}

export interface LlmClient {
  readonly model: string;
  readonly baseURL: string;
  /** The role whose requests this client sends: the shared limit is divided fairly between lanes. */
  readonly lane: string;
  /** A client for another model on the same endpoint, sharing this one's concurrency limit, counters and memory. */
  withModel(model: string): LlmClient;
  /** The same client for another role (experience, policy, task-generator…): one lane of the shared limit. */
  withLane(lane: string): LlmClient;
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion>;
  /**
   * A reply parsed and validated by the schema, with one repair attempt. Never throws for a bad reply (it
   * returns ok: false with the raw texts); throws LlmRequestError when the endpoint cannot answer and
   * LlmAbortedError when the signal fires.
   */
  chatJson<T>(messages: ChatMessage[], options: ChatJsonOptions<T>): Promise<ChatJsonResult<T>>;
  /** Tokens used so far by every client sharing this state. */
  usage(): Usage;
  stats(): LlmStats;
}

/** What a run shares: one semaphore, one set of counters, and what each model's server was found not to support. */
interface SharedState {
  transport: TransportSettings;
  unsupported: Map<string, Set<ResponseFormatMode>>;
}

const PLACEHOLDER_KEY = "sk-no-key-needed";

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const baseURL = options.baseURL ?? "https://api.openai.com/v1";
  const stats: Counters = {
    calls: 0,
    requests: 0,
    retries: 0,
    failures: 0,
    invalidReplies: 0,
    repairs: 0,
    formatFallbacks: 0,
    aborted: 0,
    promptTokens: 0,
    completionTokens: 0,
    cachedPromptTokens: 0,
  };
  const shared: SharedState = {
    transport: {
      // Retries are ours (transport.ts): the SDK's own would hide attempts from the counters and the cap.
      sdk: new OpenAI({
        baseURL,
        apiKey: options.apiKey || PLACEHOLDER_KEY,
        timeout: options.timeoutMs,
        maxRetries: 0,
      }),
      baseURL,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
      random: options.random ?? Math.random,
      semaphore: new Semaphore(options.concurrency),
      stats,
    },
    unsupported: new Map(),
  };
  return new OpenAICompatibleClient(shared, options.model, options.lane ?? "default");
}

function genericRepair(original: ChatMessage[], reply: string, error: string): ChatMessage[] {
  return [
    ...original,
    { role: "assistant", content: reply },
    {
      role: "user",
      content: `Your reply could not be used: ${error}. Reply again with only the complete JSON object.`,
    },
  ];
}

function truncationError(maxTokens: number | undefined): string {
  const limit = maxTokens === undefined ? "the token limit" : `the limit of ${maxTokens} tokens`;
  return `the reply was cut off at ${limit} (finish_reason "length") before the JSON was complete; write a shorter reply`;
}

/** A reply cut at the token limit, refused or empty is as unusable as malformed JSON, and repaired the same way. */
function readReply<T>(reply: Completion, options: ChatJsonOptions<T>): ParsedJson<T> {
  if (reply.finishReason === "length") return { ok: false, error: truncationError(options.maxTokens) };
  if (reply.refusal) return { ok: false, error: `the model refused: ${reply.refusal}` };
  if (reply.text.trim() === "") return { ok: false, error: "the reply is empty" };
  return parseJsonReply(reply.text, options.schema);
}

class OpenAICompatibleClient implements LlmClient {
  constructor(
    private readonly shared: SharedState,
    readonly model: string,
    readonly lane: string,
  ) {}

  get baseURL(): string {
    return this.shared.transport.baseURL;
  }

  withModel(model: string): LlmClient {
    return new OpenAICompatibleClient(this.shared, model, this.lane);
  }

  withLane(lane: string): LlmClient {
    return new OpenAICompatibleClient(this.shared, this.model, lane);
  }

  usage(): Usage {
    const { promptTokens, completionTokens, cachedPromptTokens } = this.shared.transport.stats;
    return { promptTokens, completionTokens, ...(cachedPromptTokens > 0 ? { cachedPromptTokens } : {}) };
  }

  stats(): LlmStats {
    const { semaphore, stats } = this.shared.transport;
    return {
      ...stats,
      inFlight: semaphore.inFlight,
      maxInFlight: semaphore.maxInFlight,
      achievedConcurrency: semaphore.achievedConcurrency,
      lanes: semaphore.laneStats(),
    };
  }

  private unsupportedFor(model: string): Set<ResponseFormatMode> {
    let set = this.shared.unsupported.get(model);
    if (!set) {
      set = new Set();
      this.shared.unsupported.set(model, set);
    }
    return set;
  }

  private formatFor(model: string, json: CompleteOptions["json"]): ResponseFormatMode {
    if (!json) return "text";
    const unsupported = this.unsupportedFor(model);
    if (json.schema && !unsupported.has("json_schema")) return "json_schema";
    return unsupported.has("json_object") ? "text" : "json_object";
  }

  complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    this.shared.transport.stats.calls += 1;
    return this.request(messages, options);
  }

  /** One completion, with retries and the response_format ladder; counted as a call by its caller. */
  private async request(messages: ChatMessage[], options: CompleteOptions): Promise<Completion> {
    const started = performance.now();
    const model = options.model ?? this.model;
    const { transport } = this.shared;
    if (options.signal?.aborted) {
      transport.stats.aborted += 1;
      throw new LlmAbortedError(options.signal.reason);
    }
    let requests = 0;
    let retries = 0;
    for (;;) {
      const format = this.formatFor(model, options.json);
      const outcome = await send(
        transport,
        {
          model,
          messages,
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
          ...(format === "json_schema" && options.json?.schema
            ? {
                response_format: {
                  type: "json_schema",
                  json_schema: {
                    name: options.json.schema.name,
                    schema: options.json.schema.schema,
                    strict: true,
                  },
                },
              }
            : format === "json_object"
              ? { response_format: { type: "json_object" } }
              : {}),
        },
        options.signal,
        this.lane,
      );
      requests += outcome.requests;
      retries += outcome.retries;
      if (!outcome.ok) {
        // "text" sends no response_format, so a rejection always has a weaker level left to try.
        this.unsupportedFor(model).add(format);
        transport.stats.formatFallbacks += 1;
        continue;
      }
      return {
        model,
        usage: outcome.sent.usage,
        latencyMs: Math.round(performance.now() - started),
        requests,
        retries,
        format,
        text: outcome.sent.text,
        finishReason: outcome.sent.finishReason,
        ...(outcome.sent.refusal ? { refusal: outcome.sent.refusal } : {}),
      };
    }
  }

  async chatJson<T>(messages: ChatMessage[], options: ChatJsonOptions<T>): Promise<ChatJsonResult<T>> {
    const started = performance.now();
    this.shared.transport.stats.calls += 1;
    const model = options.model ?? this.model;
    const repair: RepairMessages = options.repair ?? genericRepair;
    const usage: Usage = { promptTokens: 0, completionTokens: 0 };
    const raws: string[] = [];
    const errors: string[] = [];
    let requests = 0;
    let retries = 0;
    let format: ResponseFormatMode = "text";
    let conversation = messages;
    for (let round = 0; round < 2; round++) {
      const reply = await this.request(conversation, {
        json: options.jsonSchema ? { schema: options.jsonSchema } : {},
        temperature: options.temperature,
        maxTokens: options.maxTokens,
        signal: options.signal,
        model,
      });
      usage.promptTokens += reply.usage.promptTokens;
      usage.completionTokens += reply.usage.completionTokens;
      if (reply.usage.cachedPromptTokens !== undefined)
        usage.cachedPromptTokens = (usage.cachedPromptTokens ?? 0) + reply.usage.cachedPromptTokens;
      requests += reply.requests;
      retries += reply.retries;
      format = reply.format;
      raws.push(reply.text);
      const summary = (): CallReport & { raws: string[]; repaired: boolean } => ({
        model,
        usage,
        latencyMs: Math.round(performance.now() - started),
        requests,
        retries,
        format,
        raws,
        repaired: round > 0,
      });
      const parsed = readReply(reply, options);
      if (parsed.ok) return { ...summary(), ok: true, value: parsed.value, text: reply.text };
      errors.push(parsed.error);
      if (round === 0) {
        this.shared.transport.stats.repairs += 1;
        conversation = repair(messages, reply.text || "(empty reply)", parsed.error);
        continue;
      }
      this.shared.transport.stats.invalidReplies += 1;
      return {
        ...summary(),
        ok: false,
        error: `unusable reply after one repair attempt (first: ${errors[0]}; after repair: ${errors[1]})`,
      };
    }
    throw new Error("unreachable: chatJson returns within two rounds");
  }
}
