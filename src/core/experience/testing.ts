import type { RealDomain } from "../envs/domain";
import { shop } from "../envs/shop";
import { episodeTransitions } from "../replay/episodeTransitions";
import { HashNgramEmbedder } from "../replay/hashEmbedder";
import { MemoryReplayBuffer } from "../replay/memoryBuffer";
import { rollout } from "../rollout";
import type { Policy, Transition } from "../types";
import { type OfflineMemory, parseListing } from "./retrieval/offlineMemory";
import type { ExperienceInput, ExperienceModel, ExperiencePrediction } from "./types";

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

/**
 * For tests of learning from real rollouts: the expert's real shop episode (on train tasks from 200) that first
 * opens a listing entry `memory` has no page of, that step as a prediction's input with its demonstrations, and
 * the episode's transitions (source "real").
 */
export async function unseenEntry(
  memory: OfflineMemory,
  buffer: MemoryReplayBuffer,
): Promise<{ opened: Transition; input: ExperienceInput; steps: Transition[] }> {
  for (let i = 200; i < 260; i++) {
    const task = shop.task("train", i);
    const episode = await rollout(shop.createEnvironment(), shop.expert(), task, shop.maxSteps);
    const steps = episodeTransitions(episode, "real", `r${i}`);
    const opened = steps.find(
      (t) => parseListing(t.state) && /^click\[b/i.test(t.action) && !memory.page(t.action, t.instruction),
    );
    if (!opened) continue;
    const demonstrations = await buffer.similar(
      { domain: "shop", state: opened.state.text, action: opened.action, instruction: task.instruction },
      8,
    );
    return {
      opened,
      input: { task, history: [], state: opened.state, action: opened.action, demonstrations },
      steps,
    };
  }
  throw new Error("no expert episode on train tasks 200–259 opens an entry the memory lacks");
}

/**
 * For tests: a model that knows the real environment. It replays the whole episode (the history shown when the
 * caller keeps no episode), then takes the action: right by construction.
 */
export function realOracle(domain: Pick<RealDomain, "createEnvironment">): ExperienceModel {
  return {
    name: "oracle",
    async predict(input: ExperienceInput): Promise<ExperiencePrediction> {
      const env = domain.createEnvironment();
      await env.reset(input.task);
      for (const step of input.episode ?? input.history) await env.step(step.action);
      const r = await env.step(input.action);
      return {
        reasoning: "",
        next: r.observation,
        reward: r.reward,
        done: r.done,
        success: r.success,
        valid: r.valid,
        model: "oracle",
        latencyMs: 0,
      };
    },
  };
}

/** For tests: a model that answers every step alike, leaving the state as it is. */
export function fixedModel(
  name: string,
  outcome: Pick<ExperiencePrediction, "reward" | "done" | "success">,
): ExperienceModel {
  return {
    name,
    predict: async (input) => ({
      reasoning: "",
      next: input.state,
      valid: true,
      model: name,
      latencyMs: 0,
      ...outcome,
    }),
  };
}
