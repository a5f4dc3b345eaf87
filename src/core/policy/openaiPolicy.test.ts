import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeHandler,
  type FakeOpenAI,
  malformed,
  okJson,
  script,
  startFakeOpenAI,
} from "../../../tests/helpers/fakeOpenAIServer";
import { firstResultShopper, listedActions } from "../../../tests/helpers/scriptedAgent";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { createLlmClient } from "../llm";
import { rollout } from "../rollout";
import { matchCandidate, OpenAIPolicy } from "./openaiPolicy";

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: FakeHandler, domain = household) {
  server = await startFakeOpenAI(handler);
  const llm = createLlmClient({
    baseURL: server.url,
    model: "agent-model",
    timeoutMs: 2_000,
    maxRetries: 0,
    concurrency: 1,
    backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 100 },
  });
  const policy = new OpenAIPolicy(llm, (task, obs) => domain.candidateActions(task, obs), {
    historyWindow: 2,
  });
  return { server, policy };
}

describe("OpenAIPolicy", () => {
  const task = household.task("test", 0);

  it("shows the task, observation and candidates, and takes the listed action the model chose", async () => {
    const env = household.createEnvironment();
    const observation = await env.reset(task);
    const candidates = household.candidateActions(task, observation);
    const chosen = candidates[1] ?? "";
    const { server, policy } = await setup(() =>
      okJson({ thought: "look around first", action: chosen.toUpperCase() }),
    );
    const decision = await policy.act(task, [], observation);
    expect(decision).toEqual({ action: chosen, thought: "look around first" });
    const prompt = String(server.requests[0]?.body.messages?.at(-1)?.content);
    expect(prompt).toContain(task.instruction);
    expect(prompt).toContain(observation.text);
    expect(listedActions(server.requests[0]!)).toEqual(candidates);
    expect(server.requests[0]?.body.temperature).toBe(0);
  });

  it("asks again when the action is not listed, and uses the repaired answer", async () => {
    const env = household.createEnvironment();
    const observation = await env.reset(task);
    const listed = household.candidateActions(task, observation)[0] ?? "";
    const { server, policy } = await setup(
      script(
        okJson({ thought: "t", action: "teleport to the kitchen" }),
        okJson({ thought: "t", action: listed }),
      ),
    );
    expect((await policy.act(task, [], observation)).action).toBe(listed);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain("not one of the listed actions");
    expect(policy.stats()).toEqual({ decisions: 1, fallbacks: 0 });
  });

  it("falls back to the first candidate and counts it when the reply stays unusable", async () => {
    const env = household.createEnvironment();
    const observation = await env.reset(task);
    const { policy } = await setup(script(malformed(), malformed()));
    const decision = await policy.act(task, [], observation);
    expect(decision.action).toBe(household.candidateActions(task, observation)[0]);
    expect(policy.stats()).toEqual({ decisions: 1, fallbacks: 1 });
  });

  it("lets the agent write its own shop search", () => {
    expect(matchCandidate("search[red  wool socks]", ["search[socks]", "click[Back to Search]"])).toBe(
      "search[red wool socks]",
    );
    expect(matchCandidate("search[socks]", ["click[Buy Now]"])).toBeUndefined();
    expect(matchCandidate("Click[buy now]", ["click[Buy Now]"])).toBe("click[Buy Now]");
  });

  it("plays a whole real episode, one request per step, with the recent history in the prompt", async () => {
    const shopTask = shop.task("test", 3);
    const { server, policy } = await setup(firstResultShopper, shop);
    const episode = await rollout(shop.createEnvironment(), policy, shopTask, shop.maxSteps);
    expect(episode.steps.map((s) => s.action.split("[")[0])).toEqual(["search", "click", "click"]);
    expect(episode.steps.at(-1)?.action.toLowerCase()).toBe("click[buy now]");
    expect(episode.steps.at(-1)?.done).toBe(true);
    expect(server.requests).toHaveLength(3);
    const last = String(server.requests[2]?.body.messages?.at(-1)?.content);
    expect(last).toContain(`1. action: ${episode.steps[0]?.action}`);
  });
});
