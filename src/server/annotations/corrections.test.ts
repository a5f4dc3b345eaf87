import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { type EventDiff, readDiff } from "./correction";
import { exportReviewedJsonl } from "./exportReviewed";
import { seedTeacherQueue } from "./testing";

let t: TestDb;

/** The annotation router as the annotator `who`. */
const as = (who: string) => createCaller(signedIn(t.db, "annotator", who));

async function pendingIds(n: number): Promise<string[]> {
  const rows = await t.db.annotation.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: n });
  return rows.map((r) => r.id);
}

async function withStep(id: string) {
  return t.db.annotation.findUniqueOrThrow({ where: { id }, include: { step: true } });
}

async function lastEvent(id: string) {
  const event = await t.db.annotationEvent.findFirstOrThrow({
    where: { annotationId: id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { ...event, diff: readDiff(event.diff) as EventDiff };
}

describeEachDatabase("whole-prediction corrections, drafts and undo", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
    await seedTeacherQueue(t.db);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("stores a correction of the next state, reward and end as columns and as a diff, and exports it", async () => {
    const [id] = await pendingIds(1);
    const before = await withStep(id!);
    await as("ana").annotations.lock({ id: id! });
    const nextState = "[Search Results] the red mug, $12, in stock";
    const reward = before.step.reward === 1 ? 0 : 1;
    const { annotation } = await as("ana").annotations.review({
      id: id!,
      action: "edit",
      correction: { nextState: `  ${nextState}  `, reward, done: !before.step.done },
    });
    // The reasoning was left alone, so it is no correction; the other three are.
    expect(annotation).toMatchObject({
      status: "edited",
      correction: null,
      correctedNextState: nextState,
      correctedReward: reward,
      correctedDone: !before.step.done,
    });
    const event = await lastEvent(id!);
    expect(event.action).toBe("edit");
    expect(event.diff.status).toEqual({ before: "pending", after: "edited" });
    expect(event.diff.fields).toEqual({
      nextState: { before: before.step.nextState, after: nextState },
      reward: { before: before.step.reward, after: reward },
      done: { before: before.step.done, after: !before.step.done },
    });
    expect(await t.db.annotationReview.findMany({ where: { annotationId: id! } })).toEqual([
      expect.objectContaining({ author: "ana", verdict: "edited", nextState, reward }),
    ]);

    // A second edit changes the reasoning too; the diff holds only what this edit changed.
    await as("ana").annotations.review({
      id: id!,
      action: "edit",
      correction: { reasoning: "It opens the mug." },
    });
    const second = await lastEvent(id!);
    expect(Object.keys(second.diff.fields)).toEqual(["reasoning"]);
    expect(second.diff.status).toEqual({ before: "edited", after: "edited" });

    const { jsonl } = await exportReviewedJsonl(t.db, undefined, { status: "edited" });
    const [line] = jsonl.trim().split("\n");
    const record = JSON.parse(line!) as {
      messages: { content: string }[];
      metadata: { stepId: string; corrected: boolean };
    };
    expect(record.metadata).toMatchObject({ stepId: before.stepId, corrected: true });
    expect(JSON.parse(record.messages.at(-1)!.content)).toMatchObject({
      reasoning: "It opens the mug.",
      next_state: nextState,
      reward,
      done: !before.step.done,
    });
  });

  it("refuses an edit that changes nothing of the model's prediction, or empties the next state", async () => {
    const [id] = await pendingIds(1);
    const row = await withStep(id!);
    await as("ana").annotations.lock({ id: id! });
    await expect(
      as("ana").annotations.review({
        id: id!,
        action: "edit",
        correction: { reasoning: row.teacherText, nextState: row.step.nextState, reward: row.step.reward },
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/accept it instead/) });
    await expect(
      as("ana").annotations.review({ id: id!, action: "edit", correction: { nextState: "  " } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/next state is empty/) });
    expect(await t.db.annotationEvent.count()).toBe(0);
  });

  it("undoes a reject, then the edit before it, putting back status, corrections and the verdict", async () => {
    const [a, b] = await pendingIds(2);
    await expect(as("ana").annotations.undo()).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^Nothing to undo/),
    });
    await as("ana").annotations.lock({ id: a! });
    await as("ana").annotations.review({ id: a!, action: "edit", correction: { reward: 0.5 } });
    await as("ana").annotations.review({ id: a!, action: "reject" });
    await as("ana").annotations.release({ id: a! });
    await as("ana").annotations.lock({ id: b! });
    await as("ana").annotations.review({ id: b!, action: "accept" });

    // u, three times: the accept of b, the reject of a, the edit of a.
    const first = await as("ana").annotations.undo();
    expect(first).toMatchObject({ undone: "accept", annotation: { id: b, status: "pending" } });
    const second = await as("ana").annotations.undo();
    expect(second).toMatchObject({
      undone: "reject",
      annotation: { id: a, status: "edited", correctedReward: 0.5, lockedBy: "ana" },
    });
    expect(
      await t.db.annotationReview.findUnique({
        where: { annotationId_author: { annotationId: a!, author: "ana" } },
      }),
    ).toMatchObject({ verdict: "edited", reward: 0.5 });
    const undoEvent = await lastEvent(a!);
    expect(undoEvent.action).toBe("undo");
    expect(undoEvent.diff.status).toEqual({ before: "rejected", after: "edited" });
    const third = await as("ana").annotations.undo();
    expect(third).toMatchObject({
      undone: "edit",
      annotation: { id: a, status: "pending", correctedReward: null, reviewedAt: null },
    });
    expect(await t.db.annotationReview.count()).toBe(0);
  });

  it("undoes nothing on an item someone else reviewed since", async () => {
    const [a] = await pendingIds(1);
    await as("ana").annotations.lock({ id: a! });
    await as("ana").annotations.review({ id: a!, action: "reject" });
    await as("ana").annotations.release({ id: a! });
    await as("bob").annotations.lock({ id: a! });
    await as("bob").annotations.review({ id: a!, action: "accept" });
    await as("bob").annotations.release({ id: a! });
    await expect(as("ana").annotations.undo()).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This trace changed after your reject (it is accepted now, by bob): nothing undone",
    });
    expect((await t.db.annotation.findUniqueOrThrow({ where: { id: a! } })).status).toBe("accepted");
  });

  it("keeps a draft per annotator until they review the item, and drops it when they discard it", async () => {
    const [a, b] = await pendingIds(2);
    const draft = { reasoning: "Half a thought", nextState: "[Search Results]", reward: "0.", done: false };
    await as("ana").annotations.saveDraft({ id: a!, draft });
    await as("ana").annotations.saveDraft({ id: b!, draft });
    expect((await as("ana").annotations.draft({ id: a! }))?.draft).toEqual(draft);
    expect(await as("bob").annotations.draft({ id: a! })).toBeNull();
    await expect(as("ana").annotations.saveDraft({ id: "no-such-id", draft })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    await as("ana").annotations.lock({ id: a! });
    await as("ana").annotations.review({
      id: a!,
      action: "edit",
      correction: { reasoning: "A whole thought." },
    });
    expect(await as("ana").annotations.draft({ id: a! })).toBeNull();
    expect(await as("ana").annotations.discardDraft({ id: b! })).toEqual({ discarded: true });
    expect(await t.db.annotationDraft.count()).toBe(0);
  });
});
