import OpenAI from "openai";
import { type Embedder, RememberingEmbedder } from "@/core/replay/embedder";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import type { Config } from "@/env";
import { OpenAIEmbedder } from "./openaiEmbedder";

/** Dimensions of well-known embedding models, so that no request is needed to learn them. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
  "nomic-embed-text": 768,
  "mxbai-embed-large": 1024,
  "all-minilm": 384,
  "bge-m3": 1024,
};

export interface CreateEmbedderOptions {
  /** The openai embedder's expected dimension, when the model is not a well-known one. */
  dimension?: number;
}

/**
 * The embedder the configuration asks for: the hashing embedder (the default: offline, deterministic) or
 * an OpenAI-compatible endpoint. For a model of unknown dimension, one probe request learns it.
 */
export async function createEmbedder(config: Config, options: CreateEmbedderOptions = {}): Promise<Embedder> {
  if (config.backends.embedding === "embedded") return new RememberingEmbedder(new HashNgramEmbedder());
  const { openai } = config;
  const model = openai.models.embedding;
  const base = {
    model,
    timeoutMs: openai.timeoutMs,
    maxRetries: openai.maxRetries,
    ...(openai.backoffMs !== undefined ? { backoffMs: openai.backoffMs } : {}),
    ...(openai.baseURL ? { baseURL: openai.baseURL } : {}),
    ...(openai.apiKey ? { apiKey: openai.apiKey } : {}),
  };
  const dimension =
    options.dimension ??
    openai.embeddingDimensions ??
    KNOWN_DIMENSIONS[model] ??
    (await probeDimension(base));
  return new OpenAIEmbedder({ ...base, dimension });
}

async function probeDimension(base: Omit<ConstructorParameters<typeof OpenAIEmbedder>[0], "dimension">) {
  const client = new OpenAI({
    apiKey: base.apiKey ?? "not-needed",
    ...(base.baseURL ? { baseURL: base.baseURL } : {}),
    timeout: base.timeoutMs ?? 60_000,
    maxRetries: base.maxRetries ?? 3,
  });
  const reply = await client.embeddings.create({
    model: base.model,
    input: ["dimension probe"],
    encoding_format: "float",
  });
  const length = reply.data[0]?.embedding.length;
  if (!length) throw new Error(`the embedding model "${base.model}" returned no vector for a probe request`);
  return length;
}
