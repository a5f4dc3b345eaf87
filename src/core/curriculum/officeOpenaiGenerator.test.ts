import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, okJson, script, startFakeOpenAI } from "../../../tests/helpers/fakeOpenAIServer";
import { generateWorld, office, possibleChanges, validateOfficeGoal } from "../envs/office";
import { playEpisode } from "../envs/office/testing";
import { createLlmClient } from "../llm";
import { Rng } from "../util/random";
import { OpenAITaskGenerator } from "./openaiGenerator";

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAITaskGenerator (office)", () => {
  it("shows the world's records, accepts valid goals the expert solves, drops closed tickets and test worlds", async () => {
    const seedTask = office.task("train", 0);
    const goal = validateOfficeGoal(seedTask.goal);
    const world = generateWorld(goal.world);
    const other = possibleChanges(world, "cancel_event")[0];
    const closed = world.tickets.find((t) => t.status === "closed");
    if (!other || !closed) throw new Error("train world 0 has no event to cancel or no closed ticket");
    const reply = [
      { world: goal.world, changes: [...goal.changes, other] },
      { world: goal.world, changes: [{ kind: "close_ticket", ticket: closed.id }] },
      { world: goal.world + 1, changes: goal.changes },
    ];
    server = await startFakeOpenAI(script(okJson({ goals: reply })));
    const llm = createLlmClient({
      baseURL: server.url,
      model: "curriculum-model",
      timeoutMs: 2_000,
      maxRetries: 1,
      concurrency: 2,
      backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 100 },
    });
    const report = await new OpenAITaskGenerator(llm).generate(seedTask, 3, new Rng(1));
    expect(report.tasks).toHaveLength(1);
    expect(report.tasks[0]?.instruction).toMatch(/, and cancel the /);
    expect(
      (await playEpisode(office.expert(), report.tasks[0] as (typeof report.tasks)[number])).success,
    ).toBe(true);
    expect(report.dropped.map((d) => d.index)).toEqual([1, 2]);
    expect(report.dropped[0]?.reasons.join(" ")).toMatch(/is closed, not open/);
    expect(report.dropped[1]?.reasons.join(" ")).toMatch(/odd worlds are held-out test worlds/);
    const user = String(server.requests[0]?.body.messages?.[1]?.content);
    expect(user).toContain(`${closed.id} | closed | ${closed.tag} | ${closed.requester}`);
    expect(user).toContain('"kind": "close_noted"');
  });
});
