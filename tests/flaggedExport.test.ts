import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/flagged/export/route";
import { createCaller } from "@/server/api/root";
import { signedIn } from "@/server/api/testing";
import { sessionHeaders } from "@/server/auth/testing";
import type { Db } from "@/server/db";
import type { RegressionCase } from "@/server/steps/exportFlagged";
import { seedResearcherWorld } from "@/server/steps/testFixtures";
import { createTestDb, type TestDb } from "./helpers/testDb";

let t: TestDb;
const shared = globalThis as unknown as { dreamgymDb?: Promise<Db> };
beforeEach(async () => {
  t = await createTestDb();
  // The route asks getDb() for the process's client: it gets this test's database.
  shared.dreamgymDb = Promise.resolve(t.db);
});
afterEach(async () => {
  delete shared.dreamgymDb;
  await t.cleanup();
});

async function download(query: string): Promise<{ response: Response; cases: RegressionCase[] }> {
  const headers = await sessionHeaders(t.db, "researcher");
  const response = await GET(new Request(`http://localhost/api/flagged/export${query}`, { headers }));
  const text = await response.text();
  const cases = text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as RegressionCase);
  return { response, cases };
}

/** The step router as the researcher `who` (their email is what a flag records). */
const as = (who: string) => createCaller(signedIn(t.db, "researcher", who));

/** The route handler of /api/flagged/export over a real SQLite database. */
describe("the flagged-step export", () => {
  it("writes one regression case per flagged step: inputs, prediction, real answer and the verdict", async () => {
    const world = await seedResearcherWorld(t.db);
    await as("Rae").steps.flag({
      id: world.hallucinatedStepId,
      note: "invents a Golden Teapot",
      category: "hallucinated-element",
    });
    await as("Sam").steps.flag({ id: world.faithfulStepId, category: "wrong-reward" });
    // Two flags in one millisecond would tie; the order under test is the order of flagging.
    for (const [id, at] of [
      [world.hallucinatedStepId, "2025-02-01T00:00:00Z"],
      [world.faithfulStepId, "2025-02-02T00:00:00Z"],
    ] as const)
      await t.db.step.update({ where: { id }, data: { flaggedAt: new Date(at) } });

    const { response, cases } = await download("");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="dreamgym-flagged-\d{4}-\d\d-\d\d\.jsonl"$/,
    );
    expect(response.headers.get("x-record-count")).toBe("2");
    // Oldest flag first.
    expect(cases.map((c) => c.stepId)).toEqual([world.hallucinatedStepId, world.faithfulStepId]);
    expect(cases[0]).toEqual({
      stepId: world.hallucinatedStepId,
      trajectoryId: world.syntheticId,
      domain: "shop",
      runId: world.runId,
      run: "fixture run",
      iteration: 0,
      stepIndex: 1,
      instruction: "buy a red mug under 20 dollars",
      history: [{ state: "Search", action: "search[red mug]" }],
      state: "Results [SEP] Red Mug [SEP] $12.00",
      action: "click[Red Mug]",
      model: null,
      predicted: {
        reasoning: "Clicking a product opens its page.",
        nextState: "Red Mug [SEP] Price: $12.00 [SEP] Golden Teapot [SEP] Buy Now",
        reward: 1,
        done: true,
        valid: true,
      },
      real: { nextState: "Red Mug [SEP] Price: $12.00 [SEP] Buy Now", reward: 0, done: false, valid: true },
      category: "hallucinated-element",
      categoryLabel: "hallucinated element",
      note: "invents a Golden Teapot",
      author: "Rae",
      flaggedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(cases[1]).toMatchObject({
      stepIndex: 0,
      history: [],
      category: "wrong-reward",
      note: null,
      author: "Sam",
    });
  });

  it("exports under the list's filters, and refuses a filter it does not know", async () => {
    const world = await seedResearcherWorld(t.db);
    await as("Rae").steps.flag({ id: world.hallucinatedStepId, category: "wrong-done" });
    await as("Sam").steps.flag({ id: world.faithfulStepId, category: "wrong-reward" });

    const byAuthor = await download("?author=Sam");
    expect(byAuthor.cases.map((c) => c.stepId)).toEqual([world.faithfulStepId]);
    expect(byAuthor.response.headers.get("content-disposition")).toContain("dreamgym-flagged-Sam-");
    expect((await download("?category=wrong-done")).cases.map((c) => c.stepId)).toEqual([
      world.hallucinatedStepId,
    ]);
    expect((await download(`?run=${world.runId}&domain=shop&author=Rae`)).cases).toHaveLength(1);
    expect((await download("?domain=household")).cases).toEqual([]);
    expect((await download("?category=wrong-done&author=Sam")).cases).toEqual([]);

    const bad = await GET(
      new Request("http://localhost/api/flagged/export?category=typo", {
        headers: await sessionHeaders(t.db, "researcher"),
      }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^Bad export filter: category:/);

    // Only a role that may export flags gets the download: nobody signed in, or an annotator, does not.
    const anonymous = await GET(new Request("http://localhost/api/flagged/export"));
    expect(anonymous.status).toBe(401);
    const annotator = await GET(
      new Request("http://localhost/api/flagged/export", {
        headers: await sessionHeaders(t.db, "annotator"),
      }),
    );
    expect(annotator.status).toBe(403);
    expect(await annotator.text()).toMatch(/Your role \(annotator\) may not export step/);

    // The list filters the same way, and offers the authors there are.
    const caller = createCaller(signedIn(t.db, "viewer"));
    const list = await caller.steps.flagged({ category: "wrong-reward" });
    expect(list.items.map((i) => i.id)).toEqual([world.faithfulStepId]);
    expect(list.items[0]).toMatchObject({ flagCategory: "wrong-reward", flagAuthor: "Sam" });
    expect((await caller.steps.flagged({ author: "Rae" })).total).toBe(1);
    expect(list.authors).toEqual(["Rae", "Sam"]);
  });
});
