import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeHandler,
  type FakeOpenAI,
  hang,
  malformed,
  okJson,
  rejectResponseFormat,
  script,
  serverError,
  startFakeOpenAI,
  truncated,
} from "../../../tests/helpers/fakeOpenAIServer";
import { createLlmClient, LlmAbortedError, type LlmClientOptions, LlmRequestError } from "../llm";
import type { Demonstration } from "../replay/buffer";
import type { Observation, Task } from "../types";
import { OpenAIExperienceModel, RAW_REPAIR_SEPARATOR } from "./openaiModel";
import { EXPERIENCE_REPLY_JSON_SCHEMA } from "./reply";
import { DEFAULT_EXPERIENCE_SETTINGS, type ExperienceInput, type ExperienceSettings } from "./types";

const task: Task = {
  id: "shop:test:1",
  domain: "shop",
  instruction: "i need a red ceramic mug under 20 dollars",
  split: "test",
  origin: "seed",
};

const results: Observation = {
  text: "[results] page 1 | b0001 red ceramic mug $12.99 | b0002 blue glass mug $8.50",
  actions: ["click[back to search]", "click[next >]", "click[b0001]", "click[b0002]"],
};

const searchPage: Observation = { text: "[search] type a query", actions: ["search[...]"] };

const demonstration: Demonstration = {
  id: "t1",
  domain: "shop",
  instruction: "i want a green tea mug",
  source: "offline",
  state: { text: "[results] page 1 | b0100 green tea mug $9.99" },
  action: "click[b0100]",
  next: { text: "[item b0100] green tea mug | price $9.99 | buy now" },
  reward: 0,
  done: false,
  success: false,
  valid: true,
  score: 0.91,
};

const input = (state: Observation, action: string): ExperienceInput => ({
  task,
  history: [],
  state,
  action,
  demonstrations: [demonstration],
});

const ITEM = "[item b0001] red ceramic mug | price $12.99 | color: red | buy now";
const goodReply = {
  reasoning:
    "Clicking b0001 opens its item page, as demonstration 1 shows for b0100; not bought yet, so reward 0.",
  next_state: ITEM,
  reward: 0,
  done: false,
  success: false,
  valid: true,
};

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  handler: FakeHandler,
  overrides: Partial<LlmClientOptions> = {},
  settings: ExperienceSettings = DEFAULT_EXPERIENCE_SETTINGS,
) {
  server = await startFakeOpenAI(handler);
  const llm = createLlmClient({
    baseURL: server.url,
    model: "exp-model",
    timeoutMs: 1_000,
    maxRetries: 2,
    concurrency: 4,
    backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 300 },
    ...overrides,
  });
  return { server, llm, model: new OpenAIExperienceModel(llm, settings) };
}

describe("OpenAIExperienceModel", () => {
  it("predicts from a structured reply: next state, reward, usage, latency and model name", async () => {
    const { server, model } = await setup(
      script(okJson(goodReply, { usage: { prompt_tokens: 800, completion_tokens: 90 } })),
    );
    const prediction = await model.predict(input(results, "click[b0001]"));
    expect(model.name).toBe("openai:exp-model");
    expect(prediction).toMatchObject({
      reasoning: goodReply.reasoning,
      next: { text: ITEM },
      reward: 0,
      done: false,
      success: false,
      valid: true,
      model: "openai:exp-model",
      usage: { promptTokens: 800, completionTokens: 90 },
      raw: JSON.stringify(goodReply),
    });
    expect(prediction.next.actions).toBeUndefined();
    expect(prediction.error).toBeUndefined();
    expect(prediction.latencyMs).toBeGreaterThanOrEqual(0);

    const body = server.requests[0]?.body;
    expect(body?.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "experience_reply", schema: EXPERIENCE_REPLY_JSON_SCHEMA, strict: true },
    });
    const user = String(body?.messages?.[1]?.content);
    expect(user).toContain("## Action\nclick[b0001]");
    expect(user).toContain("next_state: [item b0100] green tea mug");
  });

  it("forces the reasoning to empty when reasoning is ablated", async () => {
    const { model } = await setup(
      script(okJson(goodReply)),
      {},
      { ...DEFAULT_EXPERIENCE_SETTINGS, reasoning: false },
    );
    const prediction = await model.predict(input(results, "click[b0001]"));
    expect(prediction.reasoning).toBe("");
    expect(prediction.next.text).toBe(ITEM);
  });

  it("keeps the state exactly when the model says the action is invalid, whatever it wrote", async () => {
    const { model } = await setup(
      script(
        okJson({
          ...goodReply,
          reasoning: "not possible",
          next_state: "[a page it made up]",
          reward: 1,
          done: true,
          success: true,
          valid: false,
        }),
      ),
    );
    const prediction = await model.predict(input(results, "click[b0001]"));
    expect(prediction).toMatchObject({ next: results, reward: 0, done: false, success: false, valid: false });
    expect(prediction.next).not.toBe(results);
    expect(prediction.reasoning).toBe("not possible");
  });

  it("still asks about an inadmissible action, then overrides the model and says so", async () => {
    const { server, model } = await setup(
      script(okJson({ ...goodReply, reward: 1, done: true, success: true })),
    );
    const prediction = await model.predict(input(results, "click[b9999]"));
    expect(server.requests).toHaveLength(1);
    expect(prediction).toMatchObject({ next: results, reward: 0, done: false, success: false, valid: false });
    expect(prediction.reasoning).toMatch(
      /^\[overridden: "click\[b9999\]" is not among the admissible actions/,
    );
    expect(prediction.error).toBeUndefined();
  });

  it("accepts any query where the state admits the search[...] template", async () => {
    const next = "[results] page 1 | b0001 red ceramic mug $12.99";
    const { model } = await setup(script(okJson({ ...goodReply, next_state: next })));
    const prediction = await model.predict(input(searchPage, "search[red ceramic mug]"));
    expect(prediction).toMatchObject({ valid: true, next: { text: next } });
  });

  it("repairs a malformed reply with the experience repair prompt", async () => {
    const bad = '{"reasoning": "opens the item", "next_state": ';
    const { server, model } = await setup(script(malformed(bad), okJson(goodReply)));
    const prediction = await model.predict(input(results, "click[b0001]"));
    expect(prediction).toMatchObject({ valid: true, next: { text: ITEM } });
    expect(prediction.usage).toEqual({ promptTokens: 20, completionTokens: 10 });
    expect(prediction.raw).toBe(`${bad}${RAW_REPAIR_SEPARATOR}${JSON.stringify(goodReply)}`);
    const messages = server.requests[1]?.body.messages ?? [];
    expect(messages.at(-2)).toEqual({ role: "assistant", content: bad });
    expect(String(messages.at(-1)?.content)).toMatch(
      /the JSON is truncated .*fields reasoning, next_state, reward/,
    );
  });

  it("repairs a reply cut at the token limit", async () => {
    const { server, model } = await setup(script(truncated(goodReply), okJson(goodReply)));
    const prediction = await model.predict(input(results, "click[b0001]"));
    expect(prediction.valid).toBe(true);
    expect(String(server.requests[1]?.body.messages?.at(-1)?.content)).toMatch(/finish_reason "length"/);
  });

  it("returns an error prediction that changes nothing when the repair fails too", async () => {
    const { model } = await setup(
      script(malformed("I think the page opens."), okJson({ ...goodReply, reward: 5 })),
    );
    const prediction = await model.predict(input(results, "click[b0001]"));
    expect(prediction).toMatchObject({
      next: results,
      reward: 0,
      done: false,
      success: false,
      valid: false,
      reasoning: "",
    });
    expect(prediction.error).toMatch(/no JSON object.*reward/);
    expect(prediction.raw).toContain("I think the page opens.");
    expect(prediction.raw).toContain('"reward":5');
  });

  it("throws when the endpoint stays down (500s after retries): a run must not go on against it", async () => {
    const { server, model } = await setup(script(serverError()));
    await expect(model.predict(input(results, "click[b0001]"))).rejects.toBeInstanceOf(LlmRequestError);
    expect(server.requests).toHaveLength(3);
  });

  it("throws after timeouts and retries within a bounded time when the server hangs", async () => {
    const { server, model } = await setup(script(hang()), { timeoutMs: 100, maxRetries: 1 });
    const started = Date.now();
    await expect(model.predict(input(results, "click[b0001]"))).rejects.toThrow(/timed out after 2 attempts/);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("stops a hanging prediction when the run is cancelled", async () => {
    const { model } = await setup(script(hang()), { timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 40);
    const started = Date.now();
    await expect(
      model.predict(input(results, "click[b0001]"), { signal: controller.signal }),
    ).rejects.toBeInstanceOf(LlmAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("falls back from json_schema once and remembers it across predictions", async () => {
    const { server, model } = await setup((request) =>
      request.body.response_format?.type === "json_schema" ? rejectResponseFormat() : okJson(goodReply),
    );
    await model.predict(input(results, "click[b0001]"));
    await model.predict(input(results, "click[b0002]"));
    const rejected = server.requests.filter((r) => r.body.response_format?.type === "json_schema");
    expect(rejected).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it("shares the client's concurrency limit across parallel predictions", async () => {
    const { server, llm, model } = await setup(script(okJson(goodReply, { delayMs: 60 })), {
      concurrency: 2,
    });
    const predictions = await Promise.all(
      Array.from({ length: 6 }, (_, i) => model.predict(input(results, `click[b000${(i % 2) + 1}]`))),
    );
    expect(predictions.every((p) => p.valid)).toBe(true);
    expect(server.maxInFlight()).toBe(2);
    expect(llm.usage()).toEqual({ promptTokens: 60, completionTokens: 30 });
  });
});
