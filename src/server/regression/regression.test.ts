import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAI,
  type FakeRequest,
  okJson,
  startFakeOpenAI,
} from "../../../tests/helpers/fakeOpenAIServer";
import { createRunRow } from "../../../tests/helpers/runRow";
import { createOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { listChecks } from "./checks";
import { isRight, judgeCase, marksOf } from "./judge";
import { regressionMatrix } from "./matrix";
import { CheckRefused, startCheck } from "./startCheck";
import type { ExperienceVersion } from "./version";

let t: TestDb;
beforeEach(async () => {
  t = await createOfflineDb("shop", 6);
});
afterEach(async () => {
  await t.cleanup();
});

const EMBEDDED: ExperienceVersion = {
  backend: "embedded",
  k: 8,
  historyWindow: 4,
  reasoning: true,
};

/**
 * A synthetic episode copied from an offline one, with the real answers of the offline steps: the first step's
 * prediction is the real page, the second's adds a product the real page lacks, the third pays a reward the real
 * environment does not. Its three steps are flagged. Returns the flagged steps' actions in order.
 */
async function flaggedEpisode(db: TestDb["db"]): Promise<string[]> {
  const offline = await db.trajectory.findFirst({
    where: { source: "offline", length: { gte: 3 } },
    orderBy: { id: "asc" },
    include: { steps: { orderBy: { index: "asc" } } },
  });
  if (!offline) throw new Error("the offline episodes are all shorter than 3 steps");
  const run = await createRunRow(db, { status: "succeeded" });
  const steps = offline.steps.slice(0, 3);
  await db.trajectory.create({
    data: {
      taskId: offline.taskId,
      domain: "shop",
      source: "synthetic",
      purpose: "train",
      policy: "linear@it0",
      runId: run.id,
      iteration: 0,
      group: 0,
      totalReward: 1,
      success: false,
      length: steps.length,
      steps: {
        create: steps.map((s, index) => ({
          index,
          state: s.state,
          stateActions: s.stateActions ?? undefined,
          action: s.action,
          nextState:
            index === 1
              ? `${s.nextState} [SEP] B0FAKE00 [SEP] Invented Gadget Deluxe [SEP] $1.00`
              : s.nextState,
          reward: index === 2 ? 1 : s.reward,
          done: s.done,
          realNextState: s.nextState,
          realReward: s.reward,
          realDone: s.done,
          realValid: s.valid,
          flagged: true,
          flagCategory: "other",
          flagAuthor: "researcher@lab.org",
          flaggedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
        })),
      },
    },
  });
  return steps.map((s) => s.action);
}

describe("the regression suite of the experience model", () => {
  it("runs an embedded version on the flagged and held-out cases as a worker job, judging each by the fidelity measures", async () => {
    await flaggedEpisode(t.db);
    const check = await startCheck(t.db, EMBEDDED, { domain: "shop", heldOut: 5 }, "researcher@lab.org");
    expect(check.jobId).toBeTruthy();
    expect(check.label).toBe("embedded k=8 h=4");
    await workOnce(t.db);

    const [done] = await listChecks(t.db, "shop");
    expect(done).toMatchObject({ id: check.id, status: "succeeded", progress: 1 });
    const cases = await t.db.regressionCase.findMany({ where: { checkId: check.id } });
    expect(cases.filter((c) => c.source === "flagged")).toHaveLength(3);
    expect(cases.filter((c) => c.source === "held-out")).toHaveLength(5);
    // Every stored verdict is the judgement of the stored prediction against the stored real answer.
    for (const c of cases) {
      const expected = c.expected as {
        state: string;
        action: string;
        nextState: string;
        reward: number;
        done: boolean;
      };
      const predicted = c.predicted as { nextState: string; reward: number; done: boolean };
      const verdict = judgeCase(predicted, expected, {
        instruction: "",
        state: expected.state,
        action: expected.action,
        history: [],
      });
      expect([c.stepId, c.rewardOk, c.doneOk]).toEqual([c.stepId, verdict.rewardOk, verdict.doneOk]);
    }
    const fidelity = (await t.db.regressionCheck.findUniqueOrThrow({ where: { id: check.id } })).fidelity as {
      flagged: { cases: number; right: number };
      heldOut: { transitions: number; tokenF1: number; right: number };
    };
    expect(fidelity.flagged.cases).toBe(3);
    expect(fidelity.flagged.right).toBe(cases.filter((c) => c.source === "flagged" && isRight(c)).length);
    expect(fidelity.heldOut.transitions).toBe(5);
    expect(fidelity.heldOut.tokenF1).toBeGreaterThan(0);

    // The same version again answers the same: side by side, nothing is fixed or broken.
    await startCheck(t.db, EMBEDDED, { domain: "shop", heldOut: 5 }, null);
    await workOnce(t.db);
    for (const source of ["flagged", "held-out"] as const) {
      const matrix = await regressionMatrix(t.db, "shop", source);
      expect(matrix.versions).toHaveLength(2);
      for (const row of matrix.rows) {
        expect(row.cells.map((c) => c?.mark)).toEqual([null, null]);
        expect(row.cells[1]?.predicted.nextState).toBe(row.cells[0]?.predicted.nextState);
      }
    }
  });

  it("goes on where a crashed attempt stopped: the flagged cases written are kept, the rest asked", async () => {
    await flaggedEpisode(t.db);
    const check = await startCheck(t.db, EMBEDDED, { domain: "shop", heldOut: 0 }, null);
    const [written] = await t.db.step.findMany({
      where: { flagged: true },
      orderBy: { index: "asc" },
      take: 1,
    });
    // What the crashed attempt stored for the first case (a marker no model would write).
    await t.db.regressionCase.create({
      data: {
        checkId: check.id,
        stepId: written?.id ?? "",
        source: "flagged",
        expected: { state: "s", action: "a", nextState: "n", reward: 0, done: false },
        predicted: { nextState: "from the crashed attempt", reward: 0, done: false, reasoning: "" },
        nextStateOk: false,
        rewardOk: true,
        doneOk: true,
      },
    });
    await t.db.regressionCheck.update({ where: { id: check.id }, data: { status: "running" } });
    await workOnce(t.db);
    const cases = await t.db.regressionCase.findMany({ where: { checkId: check.id } });
    expect(cases).toHaveLength(3);
    expect(
      cases.filter((c) => (c.predicted as { nextState: string }).nextState === "from the crashed attempt"),
    ).toHaveLength(1);
    expect((await t.db.regressionCheck.findUniqueOrThrow({ where: { id: check.id } })).status).toBe(
      "succeeded",
    );
  });

  it("refuses a domain without offline data, naming it, and stores nothing", async () => {
    await expect(startCheck(t.db, EMBEDDED, { domain: "household", heldOut: 0 }, null)).rejects.toThrow(
      new CheckRefused(
        'domain "household" has no offline transitions for the experience model to learn or retrieve from',
      ),
    );
    expect(await t.db.regressionCheck.count()).toBe(0);
    expect(await t.db.job.count()).toBe(0);
  });
});

describe("an endpoint's versions against a real HTTP server on 127.0.0.1", () => {
  let server: FakeOpenAI;
  /** What each model gets right: the action of each case it answers with the real answer. */
  const rightFor: Record<string, Set<string>> = {};
  const answers = new Map<string, { nextState: string; reward: number; done: boolean }>();

  beforeAll(async () => {
    server = await startFakeOpenAI((request: FakeRequest) => {
      const user = String(request.body.messages?.at(-1)?.content ?? "");
      const action = user.split("## Action\n").at(-1)?.trim() ?? "";
      const real = answers.get(action);
      const right = real && rightFor[request.body.model ?? ""]?.has(action);
      return okJson({
        reasoning: "scripted",
        next_state: right ? real.nextState : "Nothing here [SEP] An invented page",
        reward: right ? real.reward : 0.5,
        done: right ? real.done : false,
        success: false,
        valid: true,
      });
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("marks a case the newer version breaks and one it fixes", async () => {
    const actions = await flaggedEpisode(t.db);
    const steps = await t.db.step.findMany({ where: { flagged: true }, orderBy: { index: "asc" } });
    for (const s of steps)
      answers.set(s.action, {
        nextState: s.realNextState ?? "",
        reward: s.realReward ?? 0,
        done: s.realDone ?? false,
      });
    const [first, second, third] = actions as [string, string, string];
    rightFor["exp-a"] = new Set([first, third]);
    rightFor["exp-b"] = new Set([second, third]);
    const endpoint = {
      backend: "openai" as const,
      k: 2,
      historyWindow: 2,
      reasoning: true,

      baseURL: server.url,
    };
    const a = await startCheck(t.db, { ...endpoint, model: "exp-a" }, { domain: "shop", heldOut: 2 }, null);
    await workOnce(t.db);
    const b = await startCheck(t.db, { ...endpoint, model: "exp-b" }, { domain: "shop", heldOut: 2 }, null);
    await workOnce(t.db);
    expect(a.label).toMatch(/^openai:exp-a · dreamgym-exp-v\d+ k=2 h=2$/);
    // The endpoint was asked by each version under its own model name.
    expect(new Set(server.requests.map((r) => r.body.model))).toEqual(new Set(["exp-a", "exp-b"]));

    const matrix = await regressionMatrix(t.db, "shop", "flagged");
    expect(matrix.versions.map((v) => v.id)).toEqual([a.id, b.id]);
    const byAction = new Map(matrix.rows.map((r) => [r.expected.action, r.cells]));
    expect(byAction.get(first)?.map((c) => [c?.right, c?.mark])).toEqual([
      [true, null],
      [false, "broken"],
    ]);
    expect(byAction.get(second)?.map((c) => [c?.right, c?.mark])).toEqual([
      [false, null],
      [true, "fixed"],
    ]);
    expect(byAction.get(third)?.map((c) => [c?.right, c?.mark])).toEqual([
      [true, null],
      [true, null],
    ]);
    expect(matrix.tallies[1]).toMatchObject({ cases: 3, right: 2, fixed: 1, broken: 1 });
    // A wrong answer is wrong in every part here: an invented page, a reward of 0.5.
    const broken = byAction.get(first)?.[1];
    expect([broken?.nextStateOk, broken?.rewardOk]).toEqual([false, false]);
  });
});

describe("marks along versions", () => {
  it("compares each version with the last one before it that ran the case", () => {
    expect(marksOf([true, false, false, true])).toEqual([null, "broken", null, "fixed"]);
    expect(marksOf([undefined, true, undefined, false])).toEqual([null, null, null, "broken"]);
    expect(marksOf([false, undefined, true])).toEqual([null, null, "fixed"]);
  });
});
