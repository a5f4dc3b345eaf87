import type { RealDomain } from "../envs/domain";
import { episodeTransitions } from "../replay/episodeTransitions";
import { HashNgramEmbedder } from "../replay/hashEmbedder";
import { MemoryReplayBuffer } from "../replay/memoryBuffer";
import { rollout } from "../rollout";
import type { Policy } from "../types";

/** For tests: an in-memory replay buffer of offline episodes on train tasks 0..episodes-1 of a real domain. */
export async function offlineMemoryBuffer(
  domain: RealDomain,
  episodes: number,
  policyFor: (i: number) => Policy = (i) => domain.noisy(i, 0.3),
): Promise<MemoryReplayBuffer> {
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  for (let i = 0; i < episodes; i++) {
    const episode = await rollout(
      domain.createEnvironment(),
      policyFor(i),
      domain.task("train", i),
      domain.maxSteps,
    );
    await buffer.add(episodeTransitions(episode, "offline", `o${i}`));
  }
  return buffer;
}
