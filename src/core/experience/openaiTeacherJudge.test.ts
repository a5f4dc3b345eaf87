import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeHandler,
  type FakeOpenAI,
  malformed,
  okJson,
  script,
  startFakeOpenAI,
} from "../../../tests/helpers/fakeOpenAIServer";
import { createLlmClient, LlmReplyError } from "../llm";
import type { Task } from "../types";
import { OpenAIJudge } from "./openaiJudge";
import { OpenAITeacher } from "./openaiTeacher";
import type { ExperienceInput, ExperiencePrediction, TransitionOutcome } from "./types";

const task: Task = {
  id: "household:test:3",
  domain: "household",
  instruction: "put a clean mug in the coffee machine",
  split: "test",
  origin: "seed",
};

const input: ExperienceInput = {
  task,
  history: [],
  state: {
    text: "You are in the kitchen. On the countertop 1 you see a mug 1.",
    actions: ["take mug 1 from countertop 1", "look"],
  },
  action: "take mug 1 from countertop 1",
  demonstrations: [
    {
      id: "d1",
      domain: "household",
      instruction: "put a cup in the sink",
      source: "offline",
      state: { text: "On the table 1 you see a cup 2." },
      action: "take cup 2 from table 1",
      next: { text: "You pick up the cup 2 from the table 1." },
      reward: 0,
      done: false,
      success: false,
      valid: true,
      score: 0.88,
    },
  ],
};

const outcome: TransitionOutcome = {
  next: { text: "You pick up the mug 1 from the countertop 1." },
  reward: 0,
  done: false,
  success: false,
  valid: true,
};

const prediction: ExperiencePrediction = {
  reasoning: "Taking the mug works as for cup 2 in demonstration 1.",
  next: { text: "You pick up the mug 1 from the countertop 1." },
  reward: 0,
  done: false,
  success: false,
  valid: true,
  model: "openai:exp-model",
  latencyMs: 12,
};

const TRACE =
  "The mug 1 is on the countertop 1 and the action takes it from there; demonstration 1 shows that taking an object " +
  "from a surface puts it in hand. The mug is not yet clean nor in the coffee machine, so the reward is 0.";

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: FakeHandler) {
  server = await startFakeOpenAI(handler);
  const llm = createLlmClient({
    baseURL: server.url,
    model: "teacher-model",
    timeoutMs: 1_000,
    maxRetries: 1,
    concurrency: 2,
    backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 100 },
  });
  return { server, llm };
}

describe("OpenAITeacher", () => {
  it("explains a real outcome from the experience context, as a prediction", async () => {
    const { server, llm } = await setup(
      script(okJson({ reasoning: TRACE }, { usage: { prompt_tokens: 400, completion_tokens: 60 } })),
    );
    const teacher = new OpenAITeacher(llm);
    const trace = await teacher.explain(input, outcome);
    expect(trace).toMatchObject({
      reasoning: TRACE,
      model: "openai:teacher-model",
      usage: { promptTokens: 400, completionTokens: 60 },
    });
    expect(trace.latencyMs).toBeGreaterThanOrEqual(0);

    const body = server.requests[0]?.body;
    expect(body?.response_format?.type).toBe("json_schema");
    const system = String(body?.messages?.[0]?.content);
    expect(system).toMatch(/never mention that the outcome was shown/);
    const user = String(body?.messages?.[1]?.content);
    expect(user).toContain("## Action\ntake mug 1 from countertop 1");
    expect(user).toContain("next_state: You pick up the cup 2 from the table 1.");
    expect(user).toContain("## Outcome to explain\nnext_state: You pick up the mug 1 from the countertop 1.");
  });

  it("rejects a trace that leans on being given the answer, and repairs it", async () => {
    const { server, llm } = await setup(
      script(
        okJson({ reasoning: "The real environment says the mug is picked up." }),
        okJson({ reasoning: TRACE }),
      ),
    );
    const trace = await new OpenAITeacher(llm).explain(input, outcome);
    expect(trace.reasoning).toBe(TRACE);
    expect(String(server.requests[1]?.body.messages?.at(-1)?.content)).toMatch(
      /refers to being given the outcome/,
    );
  });

  it("throws LlmReplyError with both raw replies when the repair fails too", async () => {
    const { llm } = await setup(script(malformed("no json here"), okJson({ reasoning: "" })));
    const error = await new OpenAITeacher(llm).explain(input, outcome).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmReplyError);
    expect((error as LlmReplyError).raw).toEqual(["no json here", JSON.stringify({ reasoning: "" })]);
    expect((error as Error).message).toMatch(/reasoning is empty/);
  });
});

describe("OpenAIJudge", () => {
  const scores = {
    causal: 2,
    diversity: 1,
    informativeness: 2,
    hallucination: 2,
    rationale: "Follows demonstration 1.",
  };

  it("scores the four rubrics from the prediction and its evidence", async () => {
    const { server, llm } = await setup(script(okJson(scores)));
    const judge = new OpenAIJudge(llm.withModel("judge-model"));
    const result = await judge.score(input, prediction);
    expect(result).toEqual({
      ...scores,
      model: "openai:judge-model",
      usage: { promptTokens: 10, completionTokens: 5 },
    });
    const body = server.requests[0]?.body;
    expect(body?.model).toBe("judge-model");
    expect(body?.temperature).toBe(0);
    expect(body?.response_format?.type).toBe("json_schema");
    const user = String(body?.messages?.[1]?.content);
    expect(user).toContain("## Predicted transition\nreasoning: Taking the mug works");
    expect(String(body?.messages?.[0]?.content)).toMatch(/hallucination: .*2 = none/s);
  });

  it("rejects scores outside 0–2: one repair, then LlmReplyError", async () => {
    const { server, llm } = await setup(
      script(okJson({ ...scores, causal: 3 }), okJson({ ...scores, diversity: 1.5 })),
    );
    const error = await new OpenAIJudge(llm).score(input, prediction).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmReplyError);
    expect(server.requests).toHaveLength(2);
    expect(String(server.requests[1]?.body.messages?.at(-1)?.content)).toMatch(/causal: must be 0, 1 or 2/);
    expect((error as Error).message).toMatch(/diversity: must be an integer/);
  });

  it("accepts a repaired reply", async () => {
    const { llm } = await setup(script(okJson({ ...scores, hallucination: -1 }), okJson(scores)));
    const result = await new OpenAIJudge(llm).score(input, prediction);
    expect(result.hallucination).toBe(2);
    expect(result.usage).toEqual({ promptTokens: 20, completionTokens: 10 });
  });
});
