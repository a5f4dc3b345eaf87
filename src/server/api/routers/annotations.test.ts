import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExperienceReply } from "@/core/experience/reply";
import { RetrievalTeacher } from "@/core/experience/retrieval/retrievalTeacher";
import { DEFAULT_EXPERIENCE_SETTINGS, type Teacher } from "@/core/experience/types";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { exportReviewedJsonl } from "../../annotations/exportReviewed";
import { LOCK_TTL_MS, takeLock } from "../../annotations/lock";
import { collectOffline } from "../../collect/collectOffline";
import { writeTeacherTraces } from "../../experience/teacherTraces";
import { appRouter, createCaller } from "../root";
import { signedIn } from "../testing";

let t: TestDb;
const settings = { ...DEFAULT_EXPERIENCE_SETTINGS, k: 0 };
const second: Teacher = {
  name: "second-teacher",
  async explain() {
    return { reasoning: "The second teacher's account of the step.", model: "second", latencyMs: 1 };
  },
};

describeEachDatabase("annotations", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
    for (const domain of ["household", "shop"] as const) {
      await collectOffline(t.db, {
        domain,
        policy: "noisy",
        episodes: 2,
        split: "train",
        epsilon: 0.3,
        seed: 3,
        offset: 0,
      });
    }
    await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), { limit: 10_000, settings });
    await writeTeacherTraces(t.db, undefined, second, { domain: "household", limit: 3, settings });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  /** The first traces of a teacher; the embedded teacher's on steps the second teacher left alone. */
  async function firstIds(n: number, teacher = "retrieval-teacher-v1"): Promise<string[]> {
    const rows = await t.db.annotation.findMany({
      where:
        teacher === second.name
          ? { teacher }
          : { teacher, step: { annotations: { none: { teacher: second.name } } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: n,
    });
    return rows.map((r) => r.id);
  }

  /** The annotation router as the annotator `who` (their email is what locks and reviews record). */
  const as = (who: string) => createCaller(signedIn(t.db, "annotator", who));

  describe("annotation locks", () => {
    it("lets one annotator at a time hold a trace, and another take it once the lock expired", async () => {
      const [id] = await firstIds(1);
      const held = await as("alice").annotations.lock({ id: id! });
      expect(held.lockedBy).toBe("alice");
      expect(held.lockExpiresAt.getTime() - Date.now()).toBeGreaterThan(LOCK_TTL_MS - 5_000);

      await expect(as("bob").annotations.lock({ id: id! })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/^This trace is locked by alice until \d{4}-\d\d-\d\dT/),
      });
      await expect(as("bob").annotations.review({ id: id!, action: "accept" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/locked by alice/),
      });
      // Bob cannot free Alice's lock either; renewing her own lock is fine.
      expect(await as("bob").annotations.release({ id: id! })).toEqual({ released: false });
      expect((await as("alice").annotations.lock({ id: id! })).lockedBy).toBe("alice");
      expect((await t.db.annotation.findUniqueOrThrow({ where: { id: id! } })).status).toBe("pending");

      // Alice's tab went away: her lock, taken long ago, has run out, and Bob may take the trace.
      await takeLock(t.db, id!, "alice", { now: new Date(Date.now() - 2 * LOCK_TTL_MS) });
      expect((await as("bob").annotations.lock({ id: id! })).lockedBy).toBe("bob");
      await expect(as("alice").annotations.review({ id: id!, action: "reject" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/locked by bob/),
      });
      await as("bob").annotations.review({ id: id!, action: "accept" });
      expect(await as("bob").annotations.release({ id: id! })).toEqual({ released: true });
      const row = await t.db.annotation.findUniqueOrThrow({ where: { id: id! } });
      expect(row).toMatchObject({ status: "accepted", author: "bob", lockedBy: null, lockExpiresAt: null });
    });

    it("tells the browser who holds the lock and until when, so it can say it in local time", async () => {
      const [id] = await firstIds(1);
      const held = await takeLock(t.db, id!, "alice");
      const response = await fetchRequestHandler({
        endpoint: "/api/trpc",
        req: new Request("http://localhost/api/trpc/annotations.lock", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ json: { id } }),
        }),
        router: appRouter,
        createContext: async () => signedIn(t.db, "annotator", "bob"),
      });
      expect(response.status).toBe(409);
      const body = (await response.json()) as { error: { json: { data: { lock: unknown } } } };
      expect(body.error.json.data.lock).toEqual({
        holder: "alice",
        until: held.lockExpiresAt.toISOString(),
      });
    });

    it("refuses a review from someone whose lock expired or who never took one", async () => {
      const [a, b] = await firstIds(2);
      await expect(as("alice").annotations.review({ id: a!, action: "accept" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/do not hold the lock/),
      });
      await takeLock(t.db, b!, "alice", { now: new Date(Date.now() - 2 * LOCK_TTL_MS) });
      await expect(as("alice").annotations.review({ id: b!, action: "accept" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringMatching(/^Your lock on this trace expired; open it again/),
      });
      expect(await t.db.annotationEvent.count()).toBe(0);
      expect(await t.db.annotation.count({ where: { status: { not: "pending" } } })).toBe(0);
    });

    it("gives each trace to exactly one of two annotators racing from two connections", async () => {
      const other = await t.connectAgain();
      const ids = await firstIds(8);
      const outcomes = await Promise.all(
        ids.flatMap((id) => [
          takeLock(t.db, id, "alice").then(
            () => "alice" as const,
            () => null,
          ),
          takeLock(other, id, "bob").then(
            () => "bob" as const,
            () => null,
          ),
        ]),
      );
      for (const [i, id] of ids.entries()) {
        const winners = outcomes.slice(2 * i, 2 * i + 2).filter((w) => w !== null);
        expect(winners).toHaveLength(1);
        const row = await t.db.annotation.findUniqueOrThrow({ where: { id } });
        expect(row.lockedBy).toBe(winners[0]);
      }
    });

    it("says which id is missing", async () => {
      const caller = createCaller(signedIn(t.db));
      await expect(as("alice").annotations.lock({ id: "no-such-id" })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "No annotation with id no-such-id",
      });
      await expect(caller.annotations.get({ id: "no-such-id" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      // Nobody signed in may lock nothing, and a viewer may look but not review.
      await expect(
        createCaller({ db: t.db, user: null }).annotations.lock({ id: "x" }),
      ).rejects.toMatchObject({
        code: "UNAUTHORIZED",
      });
      await expect(
        createCaller(signedIn(t.db, "viewer")).annotations.lock({ id: "no-such-id" }),
      ).rejects.toMatchObject({ code: "FORBIDDEN", message: "Your role (viewer) may not review annotation" });
    });
  });

  describe("annotation reviews", () => {
    it("writes each review and its event together, and keeps who changed what and when", async () => {
      const caller = createCaller(signedIn(t.db));
      const [id] = await firstIds(1);
      const original = (await t.db.annotation.findUniqueOrThrow({ where: { id: id! } })).teacherText;
      await as("alice").annotations.lock({ id: id! });

      await expect(
        as("alice").annotations.review({ id: id!, action: "edit", correction: "  \n " }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/correction is empty/) });
      await expect(
        as("alice").annotations.review({ id: id!, action: "edit", correction: original }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/accept it instead/) });
      await expect(as("alice").annotations.review({ id: id!, action: "reopen" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: /already pending/,
      });
      expect(await t.db.annotationEvent.count()).toBe(0);

      const edited = await as("alice").annotations.review({
        id: id!,
        action: "edit",
        correction: "  The search returned the red mug, so clicking it opens its page.  ",
      });
      expect(edited.annotation).toMatchObject({
        status: "edited",
        correction: "The search returned the red mug, so clicking it opens its page.",
        author: "alice",
        lockedBy: "alice",
      });
      expect(edited.annotation.reviewedAt).toBeInstanceOf(Date);

      await as("alice").annotations.review({ id: id!, action: "reopen" });
      await as("alice").annotations.release({ id: id! });
      await as("bob").annotations.lock({ id: id! });
      await as("bob").annotations.review({ id: id!, action: "accept" });

      const item = await caller.annotations.get({ id: id! });
      expect(item).toMatchObject({ status: "accepted", correction: null, author: "bob" });
      expect(item.step.trajectory.task.instruction.length).toBeGreaterThan(0);
      expect(item.events.map((e) => [e.author, e.action, e.before, e.after])).toEqual([
        ["bob", "accept", "The search returned the red mug, so clicking it opens its page.", original],
        [
          "alice",
          "reopen",
          "The search returned the red mug, so clicking it opens its page.",
          "The search returned the red mug, so clicking it opens its page.",
        ],
        ["alice", "edit", original, "The search returned the red mug, so clicking it opens its page."],
      ]);
      expect(item.events.every((e) => e.createdAt instanceof Date)).toBe(true);
    });

    it("filters the queue by status, domain and teacher, with counts per status", async () => {
      const caller = createCaller(signedIn(t.db));
      const [a, b, c] = await firstIds(3);
      for (const [id, action] of [
        [a, "accept"],
        [b, "reject"],
        [c, "edit"],
      ] as const) {
        await as("alice").annotations.lock({ id: id! });
        await as("alice").annotations.review({ id: id!, action, correction: "Fixed." });
      }
      const all = await t.db.annotation.count();
      const counts = await caller.annotations.counts({});
      expect(counts.counts).toEqual({ pending: all - 3, accepted: 1, edited: 1, rejected: 1 });
      expect(counts.total).toBe(all);
      expect(counts.domains).toEqual(["household", "shop"]);
      expect(counts.teachers).toEqual(["retrieval-teacher-v1", "second-teacher"]);

      const pending = await caller.annotations.list({});
      expect(pending.total).toBe(all - 3);
      expect(pending.items.every((i) => i.status === "pending")).toBe(true);
      expect((await caller.annotations.list({ status: "edited" })).items.map((i) => i.id)).toEqual([c]);

      const shop = await caller.annotations.list({ status: "all", domain: "shop" });
      expect(shop.total).toBe(
        await t.db.annotation.count({ where: { step: { trajectory: { domain: "shop" } } } }),
      );
      expect(shop.items.every((i) => i.domain === "shop")).toBe(true);
      const byTeacher = await caller.annotations.counts({ teacher: "second-teacher" });
      expect(byTeacher.counts).toEqual({ pending: 3, accepted: 0, edited: 0, rejected: 0 });
      expect((await caller.annotations.counts({ teacher: "second-teacher", domain: "shop" })).total).toBe(0);
    });
  });

  describe("reviewed SFT export", () => {
    async function review(id: string, action: "accept" | "edit" | "reject", correction?: string) {
      await as("alice").annotations.lock({ id });
      await as("alice").annotations.review({ id, action, ...(correction ? { correction } : {}) });
    }

    function parse(jsonl: string) {
      return jsonl
        .trim()
        .split("\n")
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              messages: { role: string; content: string }[];
              metadata: {
                stepId: string;
                status: string;
                corrected: boolean;
                domain: string;
                teacher: string;
              };
            },
        );
    }

    it("holds accepted traces as written and edited ones as corrected, never pending or rejected ones", async () => {
      const caller = createCaller(signedIn(t.db));
      const shopIds = (
        await t.db.annotation.findMany({
          where: { step: { trajectory: { domain: "shop" } } },
          orderBy: { id: "asc" },
          take: 2,
        })
      ).map((a) => a.id);
      const [a, b, c, d] = await firstIds(4);
      await review(a!, "accept");
      await review(b!, "edit", "A corrected chain of thought.");
      await review(c!, "reject");
      await review(d!, "edit", "Corrected, then reopened.");
      await as("alice").annotations.lock({ id: d! });
      await as("alice").annotations.review({ id: d!, action: "reopen" });
      await review(shopIds[0]!, "accept");
      await review(shopIds[1]!, "edit", "A corrected shop trace.");
      const [secondTeacher] = await firstIds(1, "second-teacher");
      await review(secondTeacher!, "edit", "The second teacher, corrected.");

      const rows = await t.db.annotation.findMany({ include: { step: { include: { trajectory: true } } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      const everything = await exportReviewedJsonl(t.db, undefined, { status: "all" });
      const records = parse(everything.jsonl);
      expect(records).toHaveLength(everything.records);
      const reviewedIds = [a, b, shopIds[0], shopIds[1], secondTeacher].map((id) => byId.get(id!)!);
      expect(new Set(records.map((r) => r.metadata.stepId))).toEqual(
        new Set(reviewedIds.map((r) => r.stepId)),
      );
      expect(records).toHaveLength(new Set(reviewedIds.map((r) => r.stepId)).size);
      expect((await caller.annotations.exportCount({ status: "all" })).records).toBe(records.length);

      const reasoningOf = (stepId: string) => {
        const target = records.find((r) => r.metadata.stepId === stepId)!.messages.at(-1)!.content;
        return ExperienceReply.parse(JSON.parse(target)).reasoning;
      };
      const accepted = byId.get(a!)!;
      expect(reasoningOf(accepted.stepId)).toBe(accepted.teacherText);
      expect(reasoningOf(byId.get(shopIds[1]!)!.stepId)).toBe("A corrected shop trace.");
      for (const skipped of [c!, d!]) {
        const stepId = byId.get(skipped)!.stepId;
        if (!reviewedIds.some((r) => r.stepId === stepId))
          expect(records.some((r) => r.metadata.stepId === stepId)).toBe(false);
      }

      const shopEdited = await exportReviewedJsonl(t.db, undefined, { status: "edited", domain: "shop" });
      expect(parse(shopEdited.jsonl).map((r) => r.metadata)).toEqual([
        expect.objectContaining({ stepId: byId.get(shopIds[1]!)!.stepId, status: "edited", corrected: true }),
      ]);
      expect((await caller.annotations.exportCount({ status: "edited", domain: "shop" })).records).toBe(1);

      const second = parse(
        (await exportReviewedJsonl(t.db, undefined, { status: "all", teacher: "second-teacher" })).jsonl,
      );
      expect(second.map((r) => r.metadata.teacher)).toEqual(["second-teacher"]);

      for (const status of ["pending", "rejected"] as const) {
        expect(await exportReviewedJsonl(t.db, undefined, { status })).toEqual({ jsonl: "", records: 0 });
        expect(await caller.annotations.exportCount({ status })).toEqual({ statuses: [], records: 0 });
      }
    });
  });
});
