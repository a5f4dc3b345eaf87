import { afterEach, describe, expect, it } from "vitest";
import { shop } from "@/core/envs/shop";
import { createLlmClient } from "@/core/llm";
import { OpenAIPolicy } from "@/core/policy/openaiPolicy";
import { type FakeOpenAI, startFakeOpenAI } from "../../../tests/helpers/fakeOpenAIServer";
import { firstResultShopper } from "../../../tests/helpers/scriptedAgent";
import { collectOffline } from "./collectOffline";

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("evaluating an LLM agent in a real environment", () => {
  it("plays every episode through the endpoint and reports the agent by its model", async () => {
    server = await startFakeOpenAI(firstResultShopper);
    const llm = createLlmClient({
      baseURL: server.url,
      model: "agent-model",
      timeoutMs: 2_000,
      maxRetries: 0,
      concurrency: 1,
    });
    const policy = new OpenAIPolicy(llm, (task, obs) => shop.candidateActions(task, obs));
    const summary = await collectOffline(
      null,
      { domain: "shop", policy: "expert", episodes: 3, split: "test", epsilon: 0, seed: 0, offset: 0 },
      { agent: { policy, name: policy.name } },
    );
    expect(summary.policy).toBe("openai:agent-model");
    expect(summary.episodes).toBe(3);
    expect(summary.transitions).toBe(9);
    expect(server.requests).toHaveLength(9);
    // The real environment scored each purchase: the first result is rarely exactly right.
    expect(summary.meanReward).toBeGreaterThan(0);
  });

  it("plays episodes concurrently up to its limit, with the same summary as one at a time", async () => {
    server = await startFakeOpenAI(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
      return firstResultShopper(request);
    });
    const evaluate = async (concurrency: number) => {
      const llm = createLlmClient({
        baseURL: server!.url,
        model: "agent-model",
        timeoutMs: 5_000,
        maxRetries: 0,
        concurrency,
      });
      const policy = new OpenAIPolicy(llm.withLane("policy"), (task, obs) =>
        shop.candidateActions(task, obs),
      );
      const summary = await collectOffline(
        null,
        { domain: "shop", policy: "expert", episodes: 12, split: "test", epsilon: 0, seed: 0, offset: 0 },
        { agent: { policy, name: policy.name, concurrency } },
      );
      return { summary, stats: llm.stats() };
    };
    const one = await evaluate(1);
    const many = await evaluate(8);
    expect(one.stats.maxInFlight).toBe(1);
    expect(many.stats.maxInFlight).toBeGreaterThanOrEqual(4);
    const { seconds: _a, ...a } = one.summary;
    const { seconds: _b, ...b } = many.summary;
    expect(b).toEqual(a);
  });
});
