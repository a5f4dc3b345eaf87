import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeHandler,
  type FakeOpenAI,
  fakeLlm,
  malformed,
  okJson,
  script,
} from "../../../tests/helpers/fakeOpenAIServer";
import { household } from "../envs/household";
import { OpenAIOutcomeJudge } from "../experience/openaiOutcomeJudge";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import { LlmReplyError } from "../llm";
import { rollout } from "../rollout";
import { parseRunConfig } from "./config";
import { importedFrom } from "./importedTesting";
import { runTraining } from "./run";

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function judgeOn(handler: FakeHandler) {
  const fake = await fakeLlm(handler, { model: "judge-model" });
  server = fake.server;
  return { server: fake.server, judge: new OpenAIOutcomeJudge(fake.llm) };
}

function userText(body: { messages?: { role: string; content: unknown }[] }): string {
  return String(body.messages?.find((m) => m.role === "user")?.content ?? "");
}

describe("the outcome judge (an imported domain's LLM-judge proxy)", () => {
  it("reads the instruction, each action with what followed and the final state, and returns its verdict", async () => {
    const task = household.task("test", 0);
    const episode = await rollout(
      household.createEnvironment(),
      household.expert(),
      task,
      household.maxSteps,
    );
    const { server, judge } = await judgeOn(
      script(okJson({ success: true, rationale: "The mug is in place." })),
    );
    expect(await judge.judge(episode)).toEqual({ success: true, rationale: "The mug is in place." });
    const body = server.requests[0]!.body;
    expect(body.model).toBe("judge-model");
    expect(body.temperature).toBe(0);
    expect(body.response_format?.type).toBe("json_schema");
    const user = userText(body);
    expect(user.startsWith(`## Task\n${task.instruction}`)).toBe(true);
    expect(user).toContain(`1. ${episode.steps[0]!.action} → `);
    expect(user).toContain(`## Final state\n${episode.steps.at(-1)!.next.text.slice(0, 200)}`);
    expect(user).toContain("The episode ended there.");
  });

  it("gives no verdict for a reply unusable after one repair (LlmReplyError), never a guessed one", async () => {
    const task = household.task("test", 1);
    const episode = await rollout(household.createEnvironment(), household.random(1), task, 3);
    const { server, judge } = await judgeOn(script(malformed(), okJson({ success: "yes", rationale: "" })));
    const error = await judge.judge(episode).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmReplyError);
    expect(server.requests).toHaveLength(2);
    expect((error as Error).message).toMatch(/outcome judge at .*success/);
  });

  it("adds its verdicts to an imported run's proxies, counting the episodes it could not judge", async () => {
    const { domain, buffer } = await importedFrom(household, "house-logs", 8, 4);
    const unjudgeable = domain.tasks("test", 1)[0]!.instruction;
    // Every episode succeeds but the first test task's, whose replies are never usable.
    const { server, judge } = await judgeOn((request) =>
      userText(request.body).startsWith(`## Task\n${unjudgeable}\n`)
        ? malformed()
        : okJson({ success: true, rationale: "Done as asked." }),
    );
    const config = parseRunConfig({
      method: "dreamgym",
      domain: "house-logs",
      iterations: 1,
      tasksPerBatch: 2,
      groupSize: 2,
      curriculum: { taskGeneration: false },
      evaluation: { interval: 5, episodes: 4, judge: true },
    });
    const deps = { domain, buffer, model: new RetrievalExperienceModel({ reasoning: true }) };
    await expect(runTraining(config, deps)).rejects.toThrow(
      /evaluation.judge is on, but the run was given no/,
    );
    const result = await runTraining(config, { ...deps, outcomeJudge: judge });
    for (const evaluation of [result.untrained, result.final])
      expect(evaluation.proxy).toMatchObject({ judgeSuccess: 1, judged: 3, judgeFailures: 1 });
    // Two evaluations of four episodes, the unjudgeable one asked twice (its repair) each time.
    expect(server.requests).toHaveLength(2 * (3 + 2));
  });

  it("is refused on a built-in domain, which has real success", () => {
    expect(() => parseRunConfig({ method: "dreamgym", domain: "shop", evaluation: { judge: true } })).toThrow(
      /evaluation.judge: the outcome judge is a proxy for imported domains; shop is built in/,
    );
  });
});
