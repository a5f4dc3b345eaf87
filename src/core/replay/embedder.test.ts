import { describe, expect, it } from "vitest";
import { type Embedder, RememberingEmbedder } from "./embedder";
import { HashNgramEmbedder } from "./hashEmbedder";

describe("an embedder that remembers recent texts", () => {
  it("gives the inner embedder's vectors, asks it once per text, and hands out copies", async () => {
    const inner = new HashNgramEmbedder();
    const asked: string[] = [];
    const counting: Embedder = {
      id: inner.id,
      dimension: inner.dimension,
      embed: (texts) => {
        asked.push(...texts);
        return inner.embed(texts);
      },
    };
    const remembering = new RememberingEmbedder(counting, 2);
    expect(remembering.id).toBe(inner.id);
    const texts = ["search[lime water]", "click[b01]", "search[lime water]"];
    const first = await remembering.embed(texts);
    expect(first.map((v) => Array.from(v))).toEqual((await inner.embed(texts)).map((v) => Array.from(v)));
    first[0]![0] = 42;
    const again = await remembering.embed(["search[lime water]", "click[b01]"]);
    expect(asked).toEqual(["search[lime water]", "click[b01]"]);
    expect(again[0]![0]).not.toBe(42);
    // Past its bound it forgets the oldest text and asks again.
    await remembering.embed(["buy now"]);
    await remembering.embed(["search[lime water]"]);
    expect(asked).toEqual(["search[lime water]", "click[b01]", "buy now", "search[lime water]"]);
  });
});
