import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shop } from "@/core/envs/shop";
import { OpenAIExperienceModel } from "@/core/experience/openaiModel";
import { OpenAITeacher } from "@/core/experience/openaiTeacher";
import { createLlmClient, LlmReplyError, LlmRequestError } from "@/core/llm";
import { OpenAIPolicy } from "@/core/policy/openaiPolicy";
import type { Task } from "@/core/types";
import { OpenAIEmbedder } from "@/server/replay/openaiEmbedder";
import {
  type FakeOpenAI,
  type FakeReply,
  type FakeRequest,
  hang,
  malformed,
  okJson,
  rateLimited,
  reset,
  serverError,
  startFakeOpenAI,
  truncated,
} from "./helpers/fakeOpenAIServer";

/** What each role's endpoint says when it answers well. */
function goodReply(request: FakeRequest): FakeReply {
  if (request.path.endsWith("/embeddings")) {
    const inputs = Array.isArray(request.body.input) ? request.body.input : [request.body.input];
    return {
      kind: "json",
      body: {
        object: "list",
        model: "emb",
        data: inputs.map((_, index) => ({ object: "embedding", index, embedding: [0.6, 0.8, 0, 0] })),
      },
    };
  }
  const schema = (request.body.response_format as { json_schema?: { name?: string } } | undefined)
    ?.json_schema?.name;
  if (schema === "agent_action") return okJson({ thought: "buy the first one", action: "click[buy now]" });
  if (schema === "teacher_trace")
    return okJson({ reasoning: "The page shows the product, so clicking it opens it." });
  return okJson({
    reasoning: "Searching shows the results page.",
    next_state: "Results: [B01] red mug $9",
    reward: 0,
    done: false,
    success: false,
    valid: true,
  });
}

/** An endpoint that fails at random, in every way the issue lists, a third of the time (seeded). */
let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const FAULTS: ((request: FakeRequest) => FakeReply)[] = [
  () => rateLimited(0),
  () => serverError(500),
  () => hang(),
  () => malformed(),
  (request) => {
    const good = goodReply(request);
    return good.kind === "ok"
      ? truncated(JSON.parse(good.content ?? "{}"))
      : { kind: "json", body: { data: "cut" } };
  },
  () => reset(),
];

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI((request) => {
    if (random() < 0.35) return FAULTS[Math.floor(random() * FAULTS.length)]!(request);
    return goodReply(request);
  });
});
afterAll(async () => {
  await server.close();
});

const llm = () =>
  createLlmClient({ baseURL: server.url, model: "faulty", timeoutMs: 300, maxRetries: 1, concurrency: 4 });
const task: Task = shop.task("test", 0);

/** An error a role may stop with: it names the endpoint and what it answered, and is one of the known kinds. */
function expectNamedFailure(error: unknown, role: string) {
  expect(
    error instanceof LlmRequestError || error instanceof LlmReplyError || error instanceof Error,
    role,
  ).toBe(true);
  const message = (error as Error).message;
  expect(error, `${role}: ${message}`).not.toBeInstanceOf(TypeError);
  if (error instanceof LlmReplyError) {
    expect(error.raw.length, role).toBeGreaterThan(0);
    return;
  }
  expect(message, role).toContain(server.url);
}

describe("every openai-backed part against an endpoint that fails at random", () => {
  it("the experience model: a prediction, an unusable reply kept as invalid with its raw text, or a named error", async () => {
    const model = new OpenAIExperienceModel(llm(), { k: 0, historyWindow: 2, reasoning: true });
    const state = await shop.createEnvironment().reset(task);
    const outcomes = { ok: 0, invalid: 0, stopped: 0 };
    for (let i = 0; i < 40; i++) {
      try {
        const p = await model.predict({
          task,
          history: [],
          state,
          action: `search[mug ${i}]`,
          demonstrations: [],
        });
        if (p.error !== undefined) {
          outcomes.invalid++;
          expect(p.valid).toBe(false);
          expect(p.raw ?? "").not.toBe("");
        } else outcomes.ok++;
      } catch (error) {
        outcomes.stopped++;
        expectNamedFailure(error, "experience model");
      }
    }
    expect(outcomes.ok).toBeGreaterThan(10);
    expect(outcomes.invalid + outcomes.stopped).toBeGreaterThan(0);
  }, 120_000);

  it("the policy: an action, a counted fallback, or a named error", async () => {
    const policy = new OpenAIPolicy(llm(), (t, obs) => shop.candidateActions(t, obs));
    const state = await shop.createEnvironment().reset(task);
    let acted = 0;
    for (let i = 0; i < 30; i++) {
      try {
        const decision = await policy.act(task, [], state);
        expect(typeof decision.action).toBe("string");
        acted++;
      } catch (error) {
        expectNamedFailure(error, "policy");
      }
    }
    expect(acted).toBeGreaterThan(10);
  }, 120_000);

  it("the teacher: a trace, or an error with the raw replies or naming the endpoint", async () => {
    const teacher = new OpenAITeacher(llm(), { k: 0, historyWindow: 2, reasoning: true });
    const state = await shop.createEnvironment().reset(task);
    let traces = 0;
    for (let i = 0; i < 30; i++) {
      try {
        const trace = await teacher.explain(
          { task, history: [], state, action: "search[mug]", demonstrations: [] },
          { next: state, reward: 0, done: false, success: false, valid: true },
        );
        expect(trace.reasoning.length).toBeGreaterThan(0);
        traces++;
      } catch (error) {
        expectNamedFailure(error, "teacher");
      }
    }
    expect(traces).toBeGreaterThan(10);
  }, 120_000);

  it("the embedder: vectors, or an error naming the endpoint", async () => {
    const embedder = new OpenAIEmbedder({
      baseURL: server.url,
      model: "emb",
      dimension: 4,
      timeoutMs: 300,
      maxRetries: 1,
      backoffMs: 1,
    });
    let embedded = 0;
    for (let i = 0; i < 30; i++) {
      try {
        const vectors = await embedder.embed([`text ${i}`, `other ${i}`]);
        expect(vectors).toHaveLength(2);
        embedded++;
      } catch (error) {
        expectNamedFailure(error, "embedder");
      }
    }
    expect(embedded).toBeGreaterThan(10);
  }, 120_000);
});
