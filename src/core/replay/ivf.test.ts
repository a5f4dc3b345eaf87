import { describe, expect, it } from "vitest";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { rollout } from "../rollout";
import type { Transition } from "../types";
import { episodeTransitions } from "./episodeTransitions";
import { HashNgramEmbedder } from "./hashEmbedder";
import { MemoryReplayBuffer } from "./memoryBuffer";

/** Noisy-expert transitions of a domain's train tasks: the kind of rows a DreamGym buffer fills with. */
async function transitions(domain: typeof shop | typeof household, episodes: number): Promise<Transition[]> {
  const out: Transition[] = [];
  for (let i = 0; i < episodes; i++) {
    const episode = await rollout(
      domain.createEnvironment(),
      domain.noisy(i, 0.5),
      domain.task("train", i),
      30,
    );
    out.push(...episodeTransitions(episode, "synthetic", `s${i}`));
  }
  return out;
}

describe("the replay buffer's IVF index", () => {
  it("finds nearly all of the exact top-k past its threshold, and the same answers on every build", async () => {
    for (const domain of [shop, household]) {
      const rows = await transitions(domain, 220);
      const exact = new MemoryReplayBuffer(new HashNgramEmbedder());
      const indexed = new MemoryReplayBuffer(new HashNgramEmbedder(), { exactUpTo: 500 });
      const again = new MemoryReplayBuffer(new HashNgramEmbedder(), { exactUpTo: 500 });
      // In iterations, as a run adds them: the index is built, then grows, then is trained again.
      for (let i = 0; i < rows.length; i += 400) {
        for (const b of [exact, indexed, again]) await b.add(rows.slice(i, i + 400));
      }
      expect(indexed.distinctTexts, domain.name).toBeGreaterThan(1_000);
      let found = 0;
      let wanted = 0;
      for (let t = 0; t < 60; t++) {
        const task = domain.task("test", t);
        const state = await domain.createEnvironment().reset(task);
        const query = {
          domain: domain.name,
          state: state.text,
          action: state.actions?.[t % state.actions.length] ?? "search[red mug]",
          instruction: task.instruction,
        };
        const truth = new Set((await exact.similar(query, 8)).map((d) => d.id));
        const got = await indexed.similar(query, 8);
        expect(got.map((d) => d.id)).toEqual((await again.similar(query, 8)).map((d) => d.id));
        found += got.filter((d) => truth.has(d.id)).length;
        wanted += truth.size;
      }
      expect(found / wanted, `${domain.name} recall@8`).toBeGreaterThan(0.9);
    }
  }, 120_000);
});
