/**
 * A DreamGym run on an imported domain with the LLM-judge proxy (evaluation.judge), in the worker, against an
 * OpenAI-protocol server on 127.0.0.1: the judge model reads each evaluation episode, its verdicts become the run's
 * judge proxy beside the others, and an episode whose reply stays unusable is counted as unjudged, never as a
 * verdict. The experience model stays embedded: only the judge asks the endpoint.
 */

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { signedIn } from "@/server/api/testing";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";
import { type FakeOpenAI, malformed, okJson, startFakeOpenAI } from "./helpers/fakeOpenAIServer";
import { useOpenaiConfig } from "./helpers/openaiConfig";
import { createTestDb, type TestDb } from "./helpers/testDb";
import { workOnce } from "./helpers/worker";

const JUDGE_MODEL = "outcome-judge";
let endpoint: FakeOpenAI;
let t: TestDb;
let openaiConfig: { restore(): void } | undefined;

function userText(body: { messages?: { role: string; content: unknown }[] }): string {
  return String(body.messages?.find((m) => m.role === "user")?.content ?? "");
}

beforeAll(async () => {
  // Success when the final state is a page of records; a question about orders is never given a usable reply.
  endpoint = await startFakeOpenAI((request) => {
    const user = userText(request.body);
    if (/^## Task\n[^\n]*orders/i.test(user)) return malformed();
    const final = user.split("## Final state\n")[1] ?? "";
    return okJson({ success: /records found/.test(final), rationale: "Read from the final state." });
  });
  openaiConfig = useOpenaiConfig({
    baseURL: endpoint.url,
    timeoutMs: 5_000,
    maxRetries: 1,
    models: { judge: JUDGE_MODEL },
  });
  t = await createTestDb();
  await importTrajectoriesFile(t.db, path.join(process.cwd(), "samples", "web-admin.jsonl"));
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
  await endpoint?.close();
  openaiConfig?.restore();
});

describe("the LLM-judge proxy in a worker run", () => {
  it("stores the judge's verdicts beside the other proxies, counting the episodes it could not judge", async () => {
    const caller = createCaller(signedIn(t.db));
    const episodes = 12;
    const { runId } = await caller.runs.create({
      method: "dreamgym",
      domain: "web-admin",
      iterations: 2,
      tasksPerBatch: 2,
      groupSize: 2,
      evaluation: { interval: 1, episodes, judge: true },
    } as never);
    await workOnce(t.db);
    const run = await caller.runs.get({ id: runId });
    expect(run.status).toBe("succeeded");

    // Only the judge asked the endpoint, once per episode of the three evaluations, plus one repair per
    // unusable reply.
    const requests = endpoint.requests;
    expect(requests.every((r) => r.body.model === JUDGE_MODEL)).toBe(true);
    const asked = requests.filter((r) => !r.body.messages?.some((m) => m.role === "assistant"));
    expect(asked).toHaveLength(3 * episodes);
    const unusable = asked.filter((r) => /^## Task\n[^\n]*orders/i.test(userText(r.body))).length;
    expect(requests).toHaveLength(3 * episodes + unusable);
    // Both kinds of answer were given: some episodes unjudgeable, some judged.
    expect(unusable).toBeGreaterThan(0);
    expect(unusable).toBeLessThan(3 * episodes);

    // The final evaluation's verdicts, recomputed from what was asked: the last `episodes` first requests.
    const final = asked.slice(-episodes).map((r) => userText(r.body));
    const unjudged = final.filter((u) => /^## Task\n[^\n]*orders/i.test(u)).length;
    const yes = final.filter(
      (u) => !/^## Task\n[^\n]*orders/i.test(u) && /records found/.test(u.split("## Final state\n")[1] ?? ""),
    ).length;
    expect(run.proxy?.final).toMatchObject({
      judgeFailures: unjudged,
      judgeSuccess: unjudged < episodes ? yes / (episodes - unjudged) : null,
    });
    for (const m of run.metrics) {
      const proxy = (m.extra as { proxy?: { judged?: number; judgeFailures?: number } }).proxy;
      expect((proxy?.judged ?? 0) + (proxy?.judgeFailures ?? 0)).toBe(episodes);
    }
  });
});
