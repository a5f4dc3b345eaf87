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

  it("breaks equal scores by content, so the same data under other database ids retrieves the same demonstrations", async () => {
    // Same task, state and action (so the same vector and score), different outcomes: which one fills the last
    // slot must not depend on the random ids a database gave them.
    const base = HAND_CHECKED[0]!;
    const outcomes = ["the drawer is open", "nothing happens", "the drawer is locked"];
    const withIds = (ids: string[]) =>
      outcomes.map((text, i) => ({ ...base, id: ids[i]!, next: { text }, reward: 0 }));
    const query = {
      domain: base.domain,
      instruction: base.instruction,
      state: base.state.text,
      action: base.action,
    };
    const nextTexts = async (ids: string[]) => {
      const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
      await buffer.add(withIds(ids));
      return (await buffer.similar(query, 2)).map((d) => d.next.text);
    };
    const one = await nextTexts(["cm3", "cm1", "cm2"]);
    expect(one).toEqual(["nothing happens", "the drawer is locked"]);
    expect(await nextTexts(["cm1", "cm2", "cm3"])).toEqual(one);
    expect(await nextTexts(["z", "a", "m"])).toEqual(one);
  });

  it("answers a query asked again after adds exactly as a buffer filled at once does", async () => {
    // Copies of a text (a synthetic rollout repeating an offline step), a replaced id and new texts.
    const copies = HAND_CHECKED.map((t, i) => ({
      ...t,
      id: `${t.id}-copy`,
      source: "synthetic" as const,
      reward: i,
    }));
    const replaced = { ...HAND_CHECKED[0]!, action: `${HAND_CHECKED[0]!.action} again` };
    const batches = [HAND_CHECKED.slice(0, 2), HAND_CHECKED.slice(2), copies, [replaced]];
    const growing = new MemoryReplayBuffer(new HashNgramEmbedder());
    const answersAfter: string[][][] = [];
    for (const batch of batches) {
      await growing.add(batch);
      const answers = [];
      for (const { query } of HAND_QUERIES) {
        for (const filter of [{}, { sources: ["synthetic" as const] }, { excludeIds: ["h-apple"] }]) {
          answers.push((await growing.similar(query, 3, filter)).map((d) => `${d.id}:${d.score.toFixed(6)}`));
        }
      }
      answersAfter.push(answers);
    }
    for (let n = 1; n <= batches.length; n++) {
      const atOnce = new MemoryReplayBuffer(new HashNgramEmbedder());
      await atOnce.add(batches.slice(0, n).flat());
      const answers = [];
      for (const { query } of HAND_QUERIES) {
        for (const filter of [{}, { sources: ["synthetic" as const] }, { excludeIds: ["h-apple"] }]) {
          answers.push((await atOnce.similar(query, 3, filter)).map((d) => `${d.id}:${d.score.toFixed(6)}`));
        }
      }
      expect(answersAfter[n - 1], `after batch ${n}`).toEqual(answers);
    }
    expect(growing.size).toBe(HAND_CHECKED.length * 2);
    // A copy in the same partition shares its original's row: a scan covers distinct texts, not transitions.
    const held = [...HAND_CHECKED.slice(1), ...copies, replaced];
    const distinct = new Set(
      held.map((t) => [t.domain, t.source, t.instruction, t.state.text, t.action].join("|")),
    );
    expect(distinct.size).toBeLessThan(held.length);
    // The replaced transition's old text keeps its row (rows are never removed).
    expect(growing.distinctTexts).toBe(distinct.size + 1);
  });
});
