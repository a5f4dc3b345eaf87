import { describe, expect, it } from "vitest";
import { cosine } from "./cosine";
import { HashNgramEmbedder } from "./hashEmbedder";
import { transitionText } from "./transitionText";

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

describe("HashNgramEmbedder", () => {
  const embedder = new HashNgramEmbedder();

  it("names its kind, version and dimension", () => {
    expect(embedder.dimension).toBe(256);
    expect(embedder.id).toBe("hash-ngram-v1-256");
    expect(new HashNgramEmbedder(64).id).toBe("hash-ngram-v1-64");
    expect(() => new HashNgramEmbedder(100)).toThrow(/power of two/);
  });

  it("is deterministic across calls and instances", async () => {
    const text = transitionText({ state: "You arrive at cabinet 3.", action: "open cabinet 3" });
    const [a] = await embedder.embed([text]);
    const [b] = await new HashNgramEmbedder().embed([text]);
    const [c] = await embedder.embed([text]);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(Array.from(a!)).toEqual(Array.from(c!));
  });

  it("returns unit vectors, and the zero vector for a text with no words", async () => {
    const vectors = await embedder.embed(["a", "Lumera Sunkissed Lipstick $14.79", "x ".repeat(5000), "?!"]);
    for (const v of vectors.slice(0, 3)) expect(norm(v)).toBeCloseTo(1, 5);
    expect(norm(vectors[3]!)).toBe(0);
  });

  it("puts similar texts closer than unrelated ones", async () => {
    const [base, near, far] = await embedder.embed([
      "You arrive at fridge 1. The fridge 1 is closed.",
      "You arrive at fridge 2. The fridge 2 is closed.",
      "Back to Search [SEP] Page 1 [SEP] Lumera Rosewood Matte Lipstick [SEP] $14.79",
    ]);
    expect(cosine(base!, near!)).toBeGreaterThan(0.7);
    expect(cosine(base!, far!)).toBeLessThan(0.2);
  });

  it("matches plurals and misspellings through character n-grams", async () => {
    const [a, b, c] = await embedder.embed(["running shoes", "runing shoe", "leather wallet"]);
    // No word in common, yet most 3-grams are shared; the 3-gram view has a fifth of the vector.
    expect(cosine(a!, b!)).toBeGreaterThan(0.1);
    expect(Math.abs(cosine(a!, c!))).toBeLessThan(0.05);
  });

  it("gives the action its own weight: same state, different action is further than a near state, same action", async () => {
    const state = "You arrive at drawer 1. The drawer 1 is closed. On the desk 1, you see a pen 1.";
    const [query, otherAction, nearState] = await embedder.embed([
      transitionText({ state, action: "open drawer 1" }),
      transitionText({ state, action: "go to desk 1" }),
      transitionText({ state: state.replace(/pen 1/, "pencil 2"), action: "open drawer 1" }),
    ]);
    expect(cosine(query!, nearState!)).toBeGreaterThan(cosine(query!, otherAction!));
    expect(cosine(query!, otherAction!)).toBeLessThan(0.8);
  });
});
