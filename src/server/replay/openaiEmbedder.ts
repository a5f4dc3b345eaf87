import OpenAI, { APIConnectionError, APIError } from "openai";
import { z } from "zod";
import type { Embedder } from "@/core/replay/embedder";
import { normalise } from "@/core/replay/hashEmbedder";

export interface OpenAIEmbedderOptions {
  /** Any OpenAI-compatible server: OpenAI, vLLM, Ollama, llama.cpp ("…/v1"). */
  baseURL?: string;
  apiKey?: string;
  model: string;
  /** The dimension the vectors must have; a reply with another one is an error, never a silent mix. */
  dimension: number;
  /** Ask the server for this dimension (text-embedding-3-* can shorten vectors; most servers reject the field). */
  requestDimensions?: boolean;
  /** Texts per request. */
  batchSize?: number;
  timeoutMs?: number;
  /** Retries of a request that failed with 429, 5xx, a timeout or a lost connection. */
  maxRetries?: number;
  /** First backoff; doubled on each retry, capped at 30 s, and never below the server's Retry-After. */
  backoffMs?: number;
}

export class EmbeddingDimensionError extends Error {
  constructor(model: string, expected: number, got: number) {
    super(
      `the embedding model "${model}" returned vectors of dimension ${got}, but ${expected} was expected; ` +
        "set the expected dimension to match the model, then run `npm run cli -- reindex`",
    );
    this.name = "EmbeddingDimensionError";
  }
}

/** The reply, parsed: a server that is only "compatible" may send anything. */
const EmbeddingsReply = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

const MAX_BACKOFF_MS = 30_000;

/**
 * Embeddings from an OpenAI-compatible /v1/embeddings endpoint. Requests are batched; 429 and 5xx replies,
 * timeouts and dropped connections are retried with exponential backoff, a bounded number of times. The
 * client's own retries are off so that this is the only retry policy. Vectors are L2-normalised on arrival
 * (OpenAI's already are; other servers' may not be), so cosine and dot product agree.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimension: number;
  private readonly client: OpenAI;
  private readonly batchSize: number;
  private readonly maxRetries: number;
  private readonly backoffMs: number;

  constructor(private readonly options: OpenAIEmbedderOptions) {
    if (!Number.isInteger(options.dimension) || options.dimension < 1) {
      throw new Error(`OpenAIEmbedder: dimension must be a positive integer, got ${options.dimension}`);
    }
    this.dimension = options.dimension;
    this.id = `openai-${options.model}-${options.dimension}`;
    this.batchSize = options.batchSize ?? 128;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.client = new OpenAI({
      // Local servers need no key, but the client insists on one.
      apiKey: options.apiKey ?? "not-needed",
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      timeout: options.timeoutMs ?? 60_000,
      maxRetries: 0,
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(i, i + this.batchSize))));
    }
    return out;
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    // An empty string is rejected by some servers; a single space embeds as "nothing".
    const input = texts.map((t) => (t.length > 0 ? t : " "));
    const raw = await this.withRetries(() =>
      this.client.embeddings.create({
        model: this.options.model,
        input,
        // Explicit: the client otherwise asks for base64, which several compatible servers do not support.
        encoding_format: "float",
        ...(this.options.requestDimensions ? { dimensions: this.dimension } : {}),
      }),
    );
    const reply = EmbeddingsReply.safeParse(raw);
    if (!reply.success) {
      throw new Error(
        `the embeddings reply from "${this.options.model}" at ${this.endpoint} is malformed: ${reply.error.message}`,
      );
    }
    const vectors: (Float32Array | undefined)[] = texts.map(() => undefined);
    for (const item of reply.data.data) {
      if (item.embedding.length !== this.dimension) {
        throw new EmbeddingDimensionError(this.options.model, this.dimension, item.embedding.length);
      }
      if (item.index < texts.length) vectors[item.index] = normalise(Float32Array.from(item.embedding));
    }
    const missing = vectors.indexOf(undefined);
    if (missing >= 0) {
      throw new Error(
        `the embeddings reply from "${this.options.model}" at ${this.endpoint} has no vector for input ${missing}`,
      );
    }
    return vectors as Float32Array[];
  }

  private get endpoint(): string {
    return this.options.baseURL ?? "https://api.openai.com/v1";
  }

  private async withRetries<T>(request: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request();
      } catch (error) {
        if (attempt >= this.maxRetries || !retryable(error)) {
          const tried = attempt > 0 ? ` after ${attempt + 1} attempts` : "";
          const what = error instanceof Error ? error.message : String(error);
          throw new Error(`embeddings "${this.options.model}" at ${this.endpoint}: ${what}${tried}`, {
            cause: error,
          });
        }
        const backoff = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2 ** attempt);
        await sleep(Math.max(backoff, retryAfterMs(error)));
      }
    }
  }
}

function retryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true; // includes timeouts
  if (error instanceof APIError && error.status !== undefined)
    return error.status === 429 || error.status >= 500;
  return false;
}

/** The server's Retry-After (seconds or an HTTP date), capped; 0 when it gave none. */
function retryAfterMs(error: unknown): number {
  if (!(error instanceof APIError)) return 0;
  const value = error.headers?.get("retry-after");
  if (!value) return 0;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(MAX_BACKOFF_MS, Math.max(0, ms)) : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
