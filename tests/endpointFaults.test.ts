import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/core/curriculum/generator";
import { OpenAITaskGenerator, type VariationReport } from "@/core/curriculum/openaiGenerator";
import { shop } from "@/core/envs/shop";
import { OpenAIJudge } from "@/core/experience/openaiJudge";
import { OpenAIExperienceModel, RAW_REPAIR_SEPARATOR } from "@/core/experience/openaiModel";
import { OpenAITeacher } from "@/core/experience/openaiTeacher";
import type { ExperiencePrediction, JudgeScores } from "@/core/experience/types";
import { createLlmClient, LlmReplyError } from "@/core/llm";
import { OpenAIPolicy } from "@/core/policy/openaiPolicy";
import type { Task } from "@/core/types";
import { Rng } from "@/core/util/random";
import { OpenAIEmbedder } from "@/server/replay/openaiEmbedder";
import { type FakeOpenAI, type ServedReply, startFakeOpenAI } from "./helpers/fakeOpenAIServer";
import {
  type CallOutcome,
  contentOf,
  expectedOutcomes,
  faultyHandler,
  isRepair,
  seededRandom,
  servedKind,
  tally,
} from "./helpers/faultyEndpoint";
import { goodReply } from "./helpers/goodReplies";

/** An endpoint that fails at random, in every way the issue lists, about a third of the time (seeded). */
let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI(faultyHandler(goodReply, { rate: 0.35, random: seededRandom(12345) }));
});
afterAll(async () => {
  await server.close();
});

const MAX_RETRIES = 1;
const llm = (baseURL = server.url) =>
  createLlmClient({
    baseURL,
    model: "faulty",
    // Far past the fake endpoint's answer, so that only a hang times out (the call-by-call checks rely on it).
    timeoutMs: 600,
    maxRetries: MAX_RETRIES,
    concurrency: 4,
    backoff: { baseMs: 5, maxMs: 20 },
  });
const task: Task = shop.task("test", 0);

/** What an endpoint that failed can have answered, as an error message says it. */
const ANSWERED =
  /\b(429|500)\b|timed out|Connection error|malformed|truncated|cut off|no JSON|not a chat completion/i;

/**
 * An error a role may stop with (LlmRequestError, LlmReplyError, the embedder's own): it names the endpoint and
 * what it answered; an unusable reply's error also carries the raw texts.
 */
function expectNamedFailure(error: unknown, role: string, url = server.url) {
  expect(error, role).toBeInstanceOf(Error);
  expect(error, `${role}: ${String(error)}`).not.toBeInstanceOf(TypeError);
  const message = (error as Error).message;
  expect(message, role).toContain(url);
  expect(message, role).toMatch(ANSWERED);
  if (error instanceof LlmReplyError) expect(error.raw.length, role).toBeGreaterThan(0);
}

/** A fresh endpoint of its own that fails a third of the time, uniformly in the six ways, for one test. */
async function withFaultyEndpoint(seed: number, body: (endpoint: FakeOpenAI) => Promise<void>) {
  const endpoint = await startFakeOpenAI(
    faultyHandler(goodReply, { rate: 1 / 3, random: seededRandom(seed) }),
  );
  try {
    await body(endpoint);
  } finally {
    await endpoint.close();
  }
}

/** The texts of the replies the client received, good ones and unusable ones apart. */
function receivedContents(served: readonly ServedReply[]) {
  const good = new Set<string>();
  const unusable = new Set<string>();
  for (const s of served) {
    const content = contentOf(s);
    if (!s.delivered || content === undefined) continue;
    (servedKind(s) === "good" ? good : unusable).add(content);
  }
  return { good, unusable };
}

const count = (outcomes: readonly CallOutcome[], outcome: CallOutcome) =>
  outcomes.filter((o) => o === outcome).length;

/** One line per role with what the endpoint served and what the calls made of it, for the test's output. */
function report(role: string, served: readonly ServedReply[], outcomes: readonly CallOutcome[]) {
  const repairs = served.filter((s) => isRepair(s.request)).length;
  console.log(
    `${role}: ${outcomes.length} calls, ${served.length} requests served ${JSON.stringify(tally(served))}, ` +
      `${repairs} repair requests; calls ok ${count(outcomes, "ok")}, unusable ${count(outcomes, "unusable")}, ` +
      `stopped ${count(outcomes, "stopped")}`,
  );
}

describe("every openai-backed part against an endpoint that fails at random", () => {
  it("the experience model: a prediction, an unusable reply kept as invalid with its raw text, or a named error", async () => {
    const model = new OpenAIExperienceModel(llm(), { k: 0, historyWindow: 2, reasoning: true });
    const state = await shop.createEnvironment().reset(task);
    const from = server.served.length;
    const outcomes: CallOutcome[] = [];
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
          outcomes.push("unusable");
          expect(p.valid).toBe(false);
          expect(p.raw ?? "").toContain(RAW_REPAIR_SEPARATOR);
        } else outcomes.push("ok");
      } catch (error) {
        outcomes.push("stopped");
        expectNamedFailure(error, "experience model");
      }
    }
    const served = server.served.slice(from);
    report("experience model", served, outcomes);
    expect(outcomes).toEqual(expectedOutcomes(served, MAX_RETRIES));
    expect(count(outcomes, "ok")).toBeGreaterThan(10);
    expect(count(outcomes, "unusable") + count(outcomes, "stopped")).toBeGreaterThan(0);
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

  it("the teacher: a trace, or an error with the raw replies and naming the endpoint", async () => {
    const teacher = new OpenAITeacher(llm(), { k: 0, historyWindow: 2, reasoning: true });
    const state = await shop.createEnvironment().reset(task);
    const from = server.served.length;
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 30; i++) {
      try {
        const trace = await teacher.explain(
          { task, history: [], state, action: "search[mug]", demonstrations: [] },
          { next: state, reward: 0, done: false, success: false, valid: true },
        );
        expect(trace.reasoning.length).toBeGreaterThan(0);
        outcomes.push("ok");
      } catch (error) {
        expectNamedFailure(error, "teacher");
        outcomes.push(error instanceof LlmReplyError ? "unusable" : "stopped");
      }
    }
    const served = server.served.slice(from);
    report("teacher", served, outcomes);
    expect(outcomes).toEqual(expectedOutcomes(served, MAX_RETRIES));
    expect(count(outcomes, "ok")).toBeGreaterThan(10);
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

describe("the task generator and the judge against an endpoint that fails at random a third of the time", () => {
  it("the task generator: variations only from good replies, none from an unusable one, or a named error", async () => {
    await withFaultyEndpoint(123, async (endpoint) => {
      const generator = new OpenAITaskGenerator(
        llm(endpoint.url).withModel("gen").withLane("task-generator"),
      );
      const parent = shop.task("train", 1);
      const outcomes: CallOutcome[] = [];
      const reports: VariationReport[] = [];
      for (let i = 0; i < 60; i++) {
        try {
          const variations = await generator.generate(parent, 2, new Rng(i));
          reports.push(variations);
          outcomes.push(variations.replyError === undefined ? "ok" : "unusable");
        } catch (error) {
          outcomes.push("stopped");
          expectNamedFailure(error, "task generator", endpoint.url);
        }
      }
      report("task generator", endpoint.served, outcomes);
      // Each call ended as the replies it was served say it must have: retried, repaired, unusable or stopped.
      expect(outcomes).toEqual(expectedOutcomes(endpoint.served, MAX_RETRIES));
      const received = receivedContents(endpoint.served);
      for (const variations of reports) {
        if (variations.replyError !== undefined) {
          // Nothing from an unusable reply becomes a task; the report keeps both raw texts the endpoint sent.
          expect(variations.tasks).toEqual([]);
          expect(variations.raws).toHaveLength(2);
          for (const raw of variations.raws) expect(received.unusable.has(raw), raw).toBe(true);
          expect(variations.replyError).toMatch(/malformed|truncated|cut off/);
          continue;
        }
        const last = variations.raws.at(-1) ?? "";
        expect(received.good.has(last), last).toBe(true);
        const offered = (JSON.parse(last) as { goals: unknown[] }).goals.map(canonicalJson);
        expect(variations.tasks).toHaveLength(2);
        for (const variation of variations.tasks) expect(offered).toContain(canonicalJson(variation.goal));
      }
      expect(generator.stats()).toMatchObject({
        calls: 60,
        unusableReplies: count(outcomes, "unusable"),
        accepted: 2 * count(outcomes, "ok"),
      });
      // The seeded faults reach every branch.
      expect(count(outcomes, "ok")).toBeGreaterThan(30);
      expect(count(outcomes, "unusable")).toBeGreaterThan(0);
      expect(count(outcomes, "stopped")).toBeGreaterThan(0);
      expect(endpoint.served.some((s) => isRepair(s.request) && servedKind(s) === "good")).toBe(true);
    });
  }, 60_000);

  it("the judge: a verdict only from a good reply, none from an unusable one, or a named error", async () => {
    await withFaultyEndpoint(4711, async (endpoint) => {
      const judge = new OpenAIJudge(llm(endpoint.url).withModel("judge").withLane("judge"), {
        k: 0,
        historyWindow: 2,
        reasoning: true,
      });
      const state = await shop.createEnvironment().reset(task);
      const prediction: ExperiencePrediction = {
        reasoning: "Searching shows the results page.",
        next: { text: "Results: [B01] red mug $9" },
        reward: 0,
        done: false,
        success: false,
        valid: true,
        model: "openai:exp",
        latencyMs: 0,
      };
      const outcomes: CallOutcome[] = [];
      const verdicts: JudgeScores[] = [];
      const unusable: LlmReplyError[] = [];
      for (let i = 0; i < 60; i++) {
        try {
          verdicts.push(
            await judge.score(
              { task, history: [], state, action: `search[mug ${i}]`, demonstrations: [] },
              prediction,
            ),
          );
          outcomes.push("ok");
        } catch (error) {
          expectNamedFailure(error, "judge", endpoint.url);
          if (error instanceof LlmReplyError) {
            outcomes.push("unusable");
            unusable.push(error);
          } else outcomes.push("stopped");
        }
      }
      report("judge", endpoint.served, outcomes);
      expect(outcomes).toEqual(expectedOutcomes(endpoint.served, MAX_RETRIES));
      const received = receivedContents(endpoint.served);
      // Every verdict is one good reply's, each reply counted once.
      const rationales = verdicts.map((v) => v.rationale);
      expect(new Set(rationales).size).toBe(verdicts.length);
      const goodRationales = [...received.good].map(
        (c) => (JSON.parse(c) as { rationale: string }).rationale,
      );
      for (const rationale of rationales) expect(goodRationales).toContain(rationale);
      expect(verdicts.length).toBe(received.good.size);
      for (const error of unusable) {
        expect(error.raw).toHaveLength(2);
        for (const raw of error.raw) expect(received.unusable.has(raw), raw).toBe(true);
      }
      expect(count(outcomes, "ok")).toBeGreaterThan(30);
      expect(count(outcomes, "unusable")).toBeGreaterThan(0);
      expect(count(outcomes, "stopped")).toBeGreaterThan(0);
    });
  }, 60_000);
});
