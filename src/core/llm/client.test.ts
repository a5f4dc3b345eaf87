import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type FakeHandler,
  type FakeOpenAI,
  hang,
  malformed,
  ok,
  okJson,
  rateLimited,
  rejectResponseFormat,
  reset,
  script,
  serverError,
  startFakeOpenAI,
  truncated,
} from "../../../tests/helpers/fakeOpenAIServer";
import { createLlmClient, type LlmClientOptions } from "./client";
import { LlmAbortedError, LlmRequestError } from "./errors";
import type { ChatMessage } from "./types";

const Answer = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });
const ANSWER_SCHEMA = {
  name: "answer",
  schema: {
    type: "object",
    additionalProperties: false,
    required: ["answer", "confidence"],
    properties: { answer: { type: "string" }, confidence: { type: "number" } },
  },
};
const GOOD = { answer: "a red mug", confidence: 0.8 };
const MESSAGES: ChatMessage[] = [
  { role: "system", content: "Reply with one JSON object: {answer, confidence}." },
  { role: "user", content: "What is on the table?" },
];

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: FakeHandler, overrides: Partial<LlmClientOptions> = {}) {
  server = await startFakeOpenAI(handler);
  const client = createLlmClient({
    baseURL: server.url,
    model: "test-model",
    timeoutMs: 1_000,
    maxRetries: 2,
    concurrency: 4,
    backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 300 },
    ...overrides,
  });
  return { server, client };
}

const ask = (client: ReturnType<typeof createLlmClient>, signal?: AbortSignal) =>
  client.chatJson(MESSAGES, {
    schema: Answer,
    jsonSchema: ANSWER_SCHEMA,
    temperature: 0,
    maxTokens: 200,
    signal,
  });

describe("chatJson: structured output", () => {
  it("asks for json_schema (strict), parses the reply and reports usage, latency and model", async () => {
    const { server, client } = await setup(
      script(okJson(GOOD, { usage: { prompt_tokens: 120, completion_tokens: 30 } })),
    );
    const result = await ask(client);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual(GOOD);
    expect(result.model).toBe("test-model");
    expect(result.usage).toEqual({ promptTokens: 120, completionTokens: 30 });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result).toMatchObject({ requests: 1, retries: 0, repaired: false, format: "json_schema" });

    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.body.model).toBe("test-model");
    expect(request?.body.temperature).toBe(0);
    expect(request?.body.max_tokens).toBe(200);
    expect(request?.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema: ANSWER_SCHEMA.schema, strict: true },
    });
    // Local servers need no key: a placeholder goes out rather than nothing.
    expect(request?.headers.authorization).toMatch(/^Bearer \S+/);

    expect(client.usage()).toEqual({ promptTokens: 120, completionTokens: 30 });
    expect(client.stats()).toMatchObject({ calls: 1, requests: 1, retries: 0, failures: 0, repairs: 0 });
  });

  it("asks for json_object when no JSON schema is given, and reads JSON wrapped in prose or think tags", async () => {
    const { server, client } = await setup(
      script(
        ok(`<think>the user wants {json}</think>Here it is:\n\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``),
      ),
    );
    const result = await client.chatJson(MESSAGES, { schema: Answer });
    expect(result.ok && result.value).toEqual(GOOD);
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_object" });
  });

  it("falls back to json_object when json_schema is rejected, and remembers it for the next call", async () => {
    const { server, client } = await setup((request) =>
      request.body.response_format?.type === "json_schema" ? rejectResponseFormat() : okJson(GOOD),
    );
    const first = await ask(client);
    const second = await ask(client);
    expect(first.ok && second.ok).toBe(true);
    expect(first.format).toBe("json_object");
    expect(second.format).toBe("json_object");
    const types = server.requests.map((r) => r.body.response_format?.type);
    expect(types).toEqual(["json_schema", "json_object", "json_object"]);
    expect(client.stats()).toMatchObject({ formatFallbacks: 1, retries: 0, failures: 0 });
  });

  it("falls back to plain text when the server supports no response_format at all", async () => {
    const { server, client } = await setup((request) =>
      request.body.response_format ? rejectResponseFormat(request.body.response_format.type) : okJson(GOOD),
    );
    const result = await ask(client);
    expect(result.ok).toBe(true);
    expect(result.format).toBe("text");
    await ask(client);
    const types = server.requests.map((r) => r.body.response_format?.type ?? "text");
    expect(types).toEqual(["json_schema", "json_object", "text", "text"]);
  });

  it("keeps what it learned per model: another model on the same client still tries json_schema", async () => {
    const { server, client } = await setup((request) =>
      request.body.model === "test-model" && request.body.response_format?.type === "json_schema"
        ? rejectResponseFormat()
        : okJson(GOOD),
    );
    await ask(client);
    await ask(client.withModel("other-model"));
    expect(server.requests.map((r) => `${r.body.model}:${r.body.response_format?.type}`)).toEqual([
      "test-model:json_schema",
      "test-model:json_object",
      "other-model:json_schema",
    ]);
  });
});

describe("chatJson: repair", () => {
  it("repairs a malformed reply once, sending back the reply and the error", async () => {
    const bad = 'Sure! {"answer": "a red mug", confidence: high}';
    const { server, client } = await setup(script(malformed(bad), okJson(GOOD)));
    const result = await ask(client);
    expect(result.ok).toBe(true);
    expect(result).toMatchObject({ repaired: true, requests: 2, raws: [bad, JSON.stringify(GOOD)] });
    expect(result.usage).toEqual({ promptTokens: 20, completionTokens: 10 });

    const messages = server.requests[1]?.body.messages ?? [];
    expect(messages).toHaveLength(MESSAGES.length + 2);
    expect(messages[MESSAGES.length]).toEqual({ role: "assistant", content: bad });
    expect(String(messages[MESSAGES.length + 1]?.content)).toMatch(
      /could not be used: the JSON is malformed/,
    );
    expect(client.stats()).toMatchObject({ calls: 1, requests: 2, repairs: 1, invalidReplies: 0 });
  });

  it("returns a failure carrying both raw replies when the repair fails too; it never throws", async () => {
    const { server, client } = await setup(
      script(malformed("not json"), okJson({ answer: "x", confidence: 7 })),
    );
    const result = await ask(client);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.raws).toEqual(["not json", JSON.stringify({ answer: "x", confidence: 7 })]);
    expect(result.error).toMatch(/no JSON object/);
    expect(result.error).toMatch(/confidence/);
    expect(server.requests).toHaveLength(2);
    expect(client.stats()).toMatchObject({ repairs: 1, invalidReplies: 1, failures: 0 });
  });

  it("treats finish_reason length as truncated and repairs", async () => {
    const { server, client } = await setup(script(truncated(GOOD), okJson(GOOD)));
    const result = await ask(client);
    expect(result.ok && result.repaired).toBe(true);
    expect(String(server.requests[1]?.body.messages?.at(-1)?.content)).toMatch(
      /cut off at the limit of 200 tokens/,
    );
  });

  it("treats empty content as a bad reply", async () => {
    const { client } = await setup(script(ok(null), ok("")));
    const result = await ask(client);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/empty/);
  });
});

describe("transport: retries, timeouts, errors", () => {
  it("retries a 429, honouring Retry-After up to the cap", async () => {
    // The server asks for 5 s; the cap in this test is 300 ms.
    const { server, client } = await setup(script(rateLimited(5), okJson(GOOD)));
    const result = await ask(client);
    expect(result.ok).toBe(true);
    expect(result).toMatchObject({ requests: 2, retries: 1 });
    const gap = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(250);
    expect(gap).toBeLessThan(2_000);
  });

  it("retries 500s with backoff and succeeds", async () => {
    const { server, client } = await setup(script(serverError(), serverError(503), okJson(GOOD)));
    const result = await ask(client);
    expect(result.ok).toBe(true);
    expect(result).toMatchObject({ requests: 3, retries: 2 });
    expect(server.requests).toHaveLength(3);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2, failures: 0 });
  });

  it("throws a clear LlmRequestError when 500s outlast maxRetries", async () => {
    const { server, client } = await setup(script(serverError()));
    const error = await ask(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    const failure = (error as LlmRequestError).failure;
    expect(failure).toMatchObject({ status: 500, attempts: 3, retryable: true, model: "test-model" });
    expect((error as Error).message).toMatch(
      /test-model at http:\/\/127\.0\.0\.1:\d+\/v1: 500 .*after 3 attempts/,
    );
    expect(server.requests).toHaveLength(3);
    expect(client.stats()).toMatchObject({ failures: 1, retries: 2 });
  });

  it("retries a reset connection, and names the endpoint when resets outlast maxRetries", async () => {
    const recovered = await setup(script(reset(), reset(), okJson(GOOD)));
    const reply = await ask(recovered.client);
    expect(reply.ok).toBe(true);
    expect(recovered.client.stats()).toMatchObject({ retries: 2, failures: 0 });
    await recovered.server.close();
    const { client } = await setup(script(reset()));
    const error = await ask(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as LlmRequestError).failure).toMatchObject({ attempts: 3, retryable: true });
    expect((error as Error).message).toMatch(
      /test-model at http:\/\/127\.0\.0\.1:\d+\/v1: .*after 3 attempts/,
    );
  });

  it("does not retry other 4xx", async () => {
    const { server, client } = await setup(
      script({
        kind: "error",
        status: 401,
        message: "Incorrect API key provided",
        type: "invalid_request_error",
      }),
    );
    const error = await ask(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as LlmRequestError).failure).toMatchObject({ status: 401, attempts: 1, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("times out a hanging request, retries, and gives up within a bounded time", async () => {
    const { server, client } = await setup(script(hang()), { timeoutMs: 150, maxRetries: 2 });
    const started = Date.now();
    const error = await ask(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as Error).message).toMatch(/timed out after 3 attempts/);
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("recovers when a hang is followed by an answer", async () => {
    const { client } = await setup(script(hang(), okJson(GOOD)), { timeoutMs: 150 });
    const result = await ask(client);
    expect(result).toMatchObject({ ok: true, requests: 2, retries: 1 });
  });

  it("retries connection errors and reports the endpoint as down", async () => {
    const { server, client } = await setup(script(okJson(GOOD)), { maxRetries: 1 });
    await server.close();
    const error = await ask(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as LlmRequestError).failure).toMatchObject({ attempts: 2, retryable: true });
    expect((error as Error).message).toMatch(/Connection error/i);
  });

  it("rejects a 200 that is not a chat completion without retrying", async () => {
    const { server, client } = await setup(script({ kind: "json", body: { hello: "world" } }));
    const error = await ask(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as Error).message).toMatch(/not a chat completion \(choices/);
    expect(server.requests).toHaveLength(1);
  });
});

describe("concurrency and cancellation", () => {
  it("keeps at most `concurrency` requests in flight across parallel calls", async () => {
    const { server, client } = await setup(script(okJson(GOOD, { delayMs: 80 })), { concurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => ask(client)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight()).toBe(2);
    expect(client.stats().maxInFlight).toBe(2);
  });

  it("shares the limit and the counters with clients made by withModel", async () => {
    const { server, client } = await setup(script(okJson(GOOD, { delayMs: 60 })), { concurrency: 1 });
    const teacher = client.withModel("teacher-model");
    await Promise.all([ask(client), ask(teacher), ask(client), ask(teacher)]);
    expect(server.maxInFlight()).toBe(1);
    expect(client.usage()).toEqual({ promptTokens: 40, completionTokens: 20 });
    expect(teacher.stats().requests).toBe(4);
  });

  it("stops waiting for a hanging call as soon as the signal aborts", async () => {
    const { client } = await setup(script(hang()), { timeoutMs: 10_000 });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await expect(ask(client, controller.signal)).rejects.toBeInstanceOf(LlmAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(client.stats().aborted).toBe(1);
  });

  it("aborts a call that is still queued for a permit, and one that is backing off", async () => {
    const { server, client } = await setup((request) => (request.index === 0 ? hang() : rateLimited(60)), {
      concurrency: 1,
      timeoutMs: 10_000,
      backoff: { retryAfterCapMs: 10_000 },
    });
    const first = new AbortController();
    const queued = new AbortController();
    const holding = ask(client, first.signal).catch((e: unknown) => e);
    const waiting = ask(client, queued.signal).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 30));
    queued.abort();
    expect(await waiting).toBeInstanceOf(LlmAbortedError);
    first.abort();
    expect(await holding).toBeInstanceOf(LlmAbortedError);

    const backingOff = new AbortController();
    const started = Date.now();
    const call = ask(client, backingOff.signal).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    backingOff.abort();
    expect(await call).toBeInstanceOf(LlmAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(2);
  });

  it("does not send anything when the signal is already aborted", async () => {
    const { server, client } = await setup(script(okJson(GOOD)));
    await expect(ask(client, AbortSignal.abort())).rejects.toBeInstanceOf(LlmAbortedError);
    expect(server.requests).toHaveLength(0);
  });
});
