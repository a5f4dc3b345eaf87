import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, okJson, startFakeOpenAI } from "../../../tests/helpers/fakeOpenAIServer";
import { OpenAIExperienceModel } from "../experience/openaiModel";
import { createLlmClient } from "../llm";
import { hashString } from "../util/random";
import { concurrencyRun, withoutLatency } from "./testing";

/**
 * An experience model endpoint whose answer is a function of the prompt alone, after a random delay: replies come
 * back in a scrambled order, so only the engine can keep results in order. The state stays as it is; the action
 * decides whether the episode ends and how it is rewarded, so groups have reward variance and updates move.
 */
let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 8));
    const prompt = request.body.messages?.map((m) => String(m.content)).join("\n") ?? "";
    const state = prompt.match(/## Current state\n([\s\S]*?)\n\n## Action/)?.[1] ?? "";
    const action = prompt.match(/## Action\n(.*)$/)?.[1] ?? "";
    const h = hashString(`${action}|${prompt.length}`);
    const done = h % 4 === 0;
    return okJson({
      reasoning: `The environment answers "${action}" from the prompt alone.`,
      next_state: state.replace(/\nadmissible actions: .*/, ""),
      reward: done && h % 8 === 0 ? 1 : 0,
      done,
      success: done && h % 8 === 0,
      valid: true,
    });
  });
});
afterAll(async () => {
  await server.close();
});

async function run(concurrency: number) {
  const llm = createLlmClient({
    baseURL: server.url,
    model: "exp",
    timeoutMs: 10_000,
    maxRetries: 0,
    concurrency,
  });
  const model = new OpenAIExperienceModel(llm.withLane("experience"), {
    k: 2,
    historyWindow: 4,
    reasoning: true,
  });
  const outcome = await concurrencyRun(
    concurrency,
    { model },
    { curriculum: { taskGeneration: false }, experience: { k: 2 } },
  );
  return { ...outcome, stats: llm.stats() };
}

describe("concurrent rollouts against an OpenAI-protocol endpoint", () => {
  it("give the same episodes, rewards and policy weights at 1 and 16 requests in flight", async () => {
    const one = await run(1);
    const many = await run(16);
    expect(one.stats.maxInFlight).toBe(1);
    expect(many.stats.maxInFlight).toBeGreaterThanOrEqual(8);
    expect(many.stats.achievedConcurrency).toBeGreaterThan(2);
    expect(many.stats.lanes.experience?.granted).toBe(many.stats.requests);
    expect(many.result.syntheticTransitions).toBeGreaterThan(20);
    expect(many.result.checkpoint.weights).toBe(one.result.checkpoint.weights);
    expect(many.result).toEqual(one.result);
    expect(withoutLatency(many.reports)).toEqual(withoutLatency(one.reports));
    // The rewards vary within groups, so the updates had something to learn from.
    const rewards = many.reports.flatMap((r) => r.episodes.map((e) => e.totalReward));
    expect(new Set(rewards).size).toBeGreaterThan(1);
  }, 120_000);
});
