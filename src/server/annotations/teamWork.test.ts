import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoleName } from "@/shared/roles";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { agreementOf, cohensKappa } from "./agreement";
import { overlapPositions } from "./assignment";
import { GUIDELINES_KEY } from "./guidelines";
import { seedTeacherQueue } from "./testing";

let t: TestDb;

const ANA = "ana@test.local";
const GRACE = "grace@test.local";
const as = (who: string, role: RoleName = "annotator") => createCaller(signedIn(t.db, role, who));

async function review(who: string, id: string, action: "accept" | "reject" | "edit") {
  await as(who).annotations.lock({ id });
  await as(who).annotations.review({
    id,
    action,
    ...(action === "edit" ? { correction: { reasoning: `${who} rewrote this.` } } : {}),
  });
  await as(who).annotations.release({ id });
}

describe("Cohen's kappa and agreement", () => {
  it("gives the textbook value: 70% observed, 50% by chance, κ = 0.4", () => {
    // 50 items: both yes 20, A yes B no 5, A no B yes 10, both no 15.
    const a = [...Array(25).fill("yes"), ...Array(25).fill("no")] as string[];
    const b = [
      ...Array(20).fill("yes"),
      ...Array(5).fill("no"),
      ...Array(10).fill("yes"),
      ...Array(15).fill("no"),
    ] as string[];
    expect(cohensKappa(a, b)).toBeCloseTo(0.4, 10);
    expect(cohensKappa(["x", "x"], ["x", "x"])).toBeNull();
    expect(cohensKappa(["x", "y"], ["y", "x"])).toBeCloseTo(-1, 10);
  });

  it("counts pairs of verdicts on items two or more people reviewed, and leaves single reviews out", () => {
    const agreement = agreementOf([
      { annotationId: "1", author: "a", verdict: "accepted" },
      { annotationId: "1", author: "b", verdict: "accepted" },
      { annotationId: "2", author: "a", verdict: "rejected" },
      { annotationId: "2", author: "b", verdict: "accepted" },
      { annotationId: "2", author: "c", verdict: "rejected" },
      { annotationId: "3", author: "a", verdict: "edited" },
    ]);
    expect(agreement).toMatchObject({ overlapping: 2, pairs: 4, agreeingPairs: 2, percent: 0.5 });
    expect(agreement.byPair[0]).toMatchObject({ a: "a", b: "b", items: 2, agreeing: 1, percent: 0.5 });
  });

  it("spreads the shared items evenly through an assignment", () => {
    expect([...overlapPositions(10, 3)]).toEqual([3, 6, 9]);
    expect([...overlapPositions(4, 4)]).toEqual([0, 1, 2, 3]);
    expect(overlapPositions(5, 0).size).toBe(0);
  });
});

describeEachDatabase("assignment, progress, agreement, guidelines and bulk actions", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
    await seedTeacherQueue(t.db);
    for (const [email, name, role] of [
      [ANA, "Ana", "annotator"],
      [GRACE, "Grace", "annotator"],
      ["rosa@test.local", "Rosa", "researcher"],
    ] as const)
      await t.db.user.create({ data: { id: `user-${email}`, email, name, role } });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("assigns the next items with an overlap, puts them first in each queue, and measures progress and agreement", async () => {
    const lead = as("rosa@test.local", "researcher");
    await expect(
      as(ANA).annotations.assignNext({ assign: { annotator: ANA, count: 4 }, filter: {} }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      lead.annotations.assignNext({ assign: { annotator: "rosa@test.local", count: 4 }, filter: {} }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/is not someone who may review/),
    });

    // The queue's oldest item is left alone by Ana's assignment only if someone else has it: give it to Grace.
    const oldest = (await as(ANA).annotations.list({})).items[0]!.id;
    await lead.annotations.reassign({ ids: [oldest], annotators: [GRACE] });
    const result = await lead.annotations.assignNext({
      assign: { annotator: ANA, count: 4, overlap: { with: GRACE, percent: 50 } },
      filter: {},
    });
    expect(result).toMatchObject({ assigned: 4, overlapping: 2 });
    expect(result.ids).not.toContain(oldest);
    const audit = await t.db.auditLog.findMany({ orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["annotations.reassign", "annotations.assign"]);
    expect(audit[1]).toMatchObject({ actor: "user-rosa@test.local", target: ANA });

    const anaQueue = await as(ANA).annotations.list({});
    expect(anaQueue.items.slice(0, 4).map((i) => i.id)).toEqual(result.ids);
    expect(anaQueue.items.slice(0, 4).every((i) => i.mine)).toBe(true);
    expect(anaQueue.items[4]?.mine).toBe(false);
    const shared = anaQueue.items.filter((i) => i.assignees.includes(GRACE) && i.assignees.includes(ANA));
    expect(shared).toHaveLength(2);
    const graceQueue = await as(GRACE).annotations.list({});
    expect(graceQueue.items.slice(0, 3).map((i) => i.id)).toEqual([oldest, ...shared.map((i) => i.id)]);

    // Ana reviews all four; Grace agrees on one shared item and not on the other.
    for (const [i, id] of result.ids.entries()) await review(ANA, id, i % 2 === 0 ? "accept" : "reject");
    // The shared items are no longer pending, but stay in Grace's pending queue until she gives her verdict.
    const graceNow = await as(GRACE).annotations.list({});
    expect(graceNow.items.filter((i) => i.mine).map((i) => i.id)).toEqual([
      oldest,
      ...shared.map((i) => i.id),
    ]);
    const counts = await as(GRACE).annotations.counts({});
    expect(counts.counts.pending).toBe(graceNow.total);
    const anaVerdict = (id: string) => (result.ids.indexOf(id) % 2 === 0 ? "accept" : "reject");
    await review(GRACE, shared[0]!.id, anaVerdict(shared[0]!.id));
    await review(GRACE, shared[1]!.id, anaVerdict(shared[1]!.id) === "accept" ? "reject" : "accept");

    const stats = await as(ANA).annotations.stats();
    expect(stats.progress.find((p) => p.email === ANA)).toMatchObject({ assigned: 4, done: 4, reviewed: 4 });
    expect(stats.progress.find((p) => p.email === GRACE)).toMatchObject({
      assigned: 3,
      done: 2,
      reviewed: 2,
    });
    expect(stats.agreement).toMatchObject({ overlapping: 2, pairs: 2, agreeingPairs: 1, percent: 0.5 });
    expect(stats.agreement.byPair).toEqual([
      expect.objectContaining({ a: ANA, b: GRACE, items: 2, agreeing: 1, kappa: expect.any(Number) }),
    ]);
  });

  it("lets admins write the guidelines everyone reads, and logs each edit", async () => {
    expect(await as(ANA).annotations.guidelines()).toEqual({ text: "", updatedBy: null, updatedAt: null });
    await expect(as(ANA).annotations.setGuidelines({ text: "Mine" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      as("rosa@test.local", "researcher").annotations.setGuidelines({ text: "Mine" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const admin = createCaller(signedIn(t.db, "admin", "boss@test.local"));
    await admin.annotations.setGuidelines({
      text: "  Reject a trace that names an element the page lacks.  ",
    });
    expect(await as(ANA).annotations.guidelines()).toMatchObject({
      text: "Reject a trace that names an element the page lacks.",
      updatedBy: "boss@test.local",
      updatedAt: expect.any(Date),
    });
    expect(await t.db.setting.count({ where: { key: GUIDELINES_KEY } })).toBe(1);
    expect(await t.db.auditLog.findMany()).toEqual([
      expect.objectContaining({
        actor: "user-boss@test.local",
        action: "guidelines.edit",
        detail: { charsBefore: 0, charsAfter: 52 },
      }),
    ]);
  });

  it("accepts or rejects several items at once, skipping one someone else holds and leaving no lock behind", async () => {
    const ids = (await as(ANA).annotations.list({})).items.slice(0, 3).map((i) => i.id);
    await as(GRACE).annotations.lock({ id: ids[1]! });
    const result = await as(ANA).annotations.bulkReview({ ids, action: "reject" });
    expect(result.done).toEqual([ids[0], ids[2]]);
    expect(result.skipped).toEqual([
      { id: ids[1], reason: expect.stringMatching(/^This trace is locked by grace@test.local until/) },
    ]);
    const rows = await t.db.annotation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0]!)).toMatchObject({ status: "rejected", lockedBy: null });
    expect(byId.get(ids[1]!)).toMatchObject({ status: "pending", lockedBy: GRACE });
    expect(await t.db.annotationReview.count({ where: { author: ANA, verdict: "rejected" } })).toBe(2);
    // Each is its own review: u undoes the last of them.
    expect((await as(ANA).annotations.undo()).annotation.id).toBe(ids[2]);
  });
});
