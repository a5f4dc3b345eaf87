import { describe, expect, it } from "vitest";
import { HashNgramEmbedder } from "./hashEmbedder";
import { MemoryReplayBuffer } from "./memoryBuffer";
import { HAND_CHECKED, HAND_QUERIES } from "./testing";

async function filled() {
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  await buffer.add(HAND_CHECKED);
  return buffer;
}

describe("MemoryReplayBuffer", () => {
  it("finds the obvious neighbour first, with scores in descending order and k respected", async () => {
    const buffer = await filled();
    for (const { expected, query } of HAND_QUERIES) {
      const found = await buffer.similar(query, 3);
      expect(found.map((d) => d.id)[0], `query for ${expected}`).toBe(expected);
      expect(found).toHaveLength(3);
      expect(found.every((d) => d.domain === query.domain)).toBe(true);
      const scores = found.map((d) => d.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores[0]).toBeGreaterThan(0.6);
      expect(scores[0]).toBeLessThanOrEqual(1 + 1e-6);
    }
    expect(await buffer.similar(HAND_QUERIES[0].query, 0)).toEqual([]);
    expect(await buffer.similar(HAND_QUERIES[0].query, 50)).toHaveLength(4);
  });

  it("filters by source, excluded ids and excluded tasks", async () => {
    const buffer = await filled();
    const { query } = HAND_QUERIES[1];
    const offline = await buffer.similar(query, 8, { sources: ["offline"] });
    expect(offline.map((d) => d.id).sort()).toEqual(["h-cabinet", "h-fridge"]);
    const without = await buffer.similar(query, 8, { excludeIds: ["h-apple"] });
    expect(without.map((d) => d.id)).not.toContain("h-apple");
    expect(without).toHaveLength(3);
    const withoutTask = await buffer.similar(query, 8, { excludeTaskIds: ["household:train:h-apple"] });
    expect(withoutTask.map((d) => d.id)).not.toContain("h-apple");
  });

  it("replaces a transition added twice instead of duplicating it", async () => {
    const buffer = await filled();
    await buffer.add(HAND_CHECKED.slice(0, 3).map((t) => ({ ...t, reward: 1 })));
    expect(buffer.size).toBe(HAND_CHECKED.length);
    const [first] = await buffer.similar(HAND_QUERIES[0].query, 1);
    expect(first?.reward).toBe(1);
  });
});
