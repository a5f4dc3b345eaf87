/**
 * Who does a model's work (experience model, teacher, task generator, judge, policy, embeddings):
 * - "embedded": in this process, with no weights, no key and no network; deterministic under a seed. Its parts
 *   are the retrieval experience model and teacher, the operator task generators, the linear policy and the
 *   hashing embedder.
 * - "openai": any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp server).
 * ARCHITECTURE.md "Backends".
 */
export const BACKENDS = ["embedded", "openai"] as const;
export type Backend = (typeof BACKENDS)[number];
