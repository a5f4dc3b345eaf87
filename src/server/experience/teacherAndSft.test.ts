import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXPERIENCE_PROMPT_VERSION } from "@/core/experience/prompt";
import { ExperienceReply } from "@/core/experience/reply";
import { RetrievalTeacher } from "@/core/experience/retrieval/retrievalTeacher";
import { DEFAULT_EXPERIENCE_SETTINGS, type Teacher } from "@/core/experience/types";
import { splitBrainFences } from "../../../tests/helpers/staleFence";
import { createHouseholdOfflineDb, type TestDb } from "../../../tests/helpers/testDb";
import { LeaseLost } from "../queue/fence";
import { countSftRecords, sftRecords } from "./exportSft";
import { writeTeacherTraces } from "./teacherTraces";

let t: TestDb;
beforeEach(async () => {
  t = await createHouseholdOfflineDb(4);
});
afterEach(async () => {
  await t.cleanup();
});

const settings = { ...DEFAULT_EXPERIENCE_SETTINGS, k: 0 };

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("teacher traces", () => {
  it("writes one pending trace per offline step, and nothing twice", async () => {
    const steps = await t.db.step.count();
    const first = await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), {
      limit: 10_000,
      settings,
    });
    expect(first.written).toBe(steps);
    expect(
      await t.db.annotation.count({ where: { status: "pending", teacher: "retrieval-teacher-v1" } }),
    ).toBe(steps);
    const again = await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), {
      limit: 10_000,
      settings,
    });
    expect(again.written).toBe(0);
    const invalid = await t.db.step.findFirst({ where: { valid: false }, include: { annotations: true } });
    if (invalid) expect(invalid.annotations[0]?.teacherText).toMatch(/cannot be carried out/);
  });

  it("writes no trace for a worker that lost its teacher job; the worker holding it writes them all", async () => {
    const { stale, current } = await splitBrainFences(t.db, "teacher", { limit: 10_000, k: 0 });
    const options = { limit: 10_000, settings };
    await expect(
      writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), options, { fence: stale }),
    ).rejects.toBeInstanceOf(LeaseLost);
    expect(await t.db.annotation.count()).toBe(0);
    const summary = await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), options, {
      fence: current,
    });
    expect(summary.written).toBe(await t.db.step.count());
    expect(await t.db.annotation.count()).toBe(summary.written);
  });

  it("continues a resumed job up to its limit, counting the traces its crashed attempt wrote", async () => {
    // The crashed attempt got as far as 3 traces of the 7 asked for.
    await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), { limit: 3, settings }, { jobId: "j" });
    const resumed = await writeTeacherTraces(
      t.db,
      undefined,
      new RetrievalTeacher(),
      { limit: 7, settings },
      { jobId: "j" },
    );
    expect(resumed.written).toBe(7);
    expect(await t.db.annotation.count({ where: { jobId: "j" } })).toBe(7);
  });

  it("respects the limit and stores no trace for a reply that failed", async () => {
    let calls = 0;
    const flaky: Teacher = {
      name: "flaky",
      async explain() {
        calls++;
        if (calls % 2 === 0) throw new Error("reply failed validation twice");
        return { reasoning: "because", model: "flaky", latencyMs: 1 };
      },
    };
    const summary = await writeTeacherTraces(t.db, undefined, flaky, { limit: 5, settings });
    expect(summary.written).toBe(5);
    expect(summary.failed).toBeGreaterThan(0);
    expect(summary.failures[0]).toMatch(/reply failed validation twice/);
    expect(await t.db.annotation.count({ where: { teacher: "flaky" } })).toBe(5);
    expect(await t.db.annotation.count({ where: { teacher: "flaky", teacherText: "" } })).toBe(0);
  });
});

describe("SFT export", () => {
  it("writes chat-format records whose target is reasoning then the real outcome, corrections winning", async () => {
    await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), { limit: 10_000, settings });
    const [a, b, c] = await t.db.annotation.findMany({ orderBy: { id: "asc" }, take: 3 });
    await t.db.annotation.update({
      where: { id: a!.id },
      data: { status: "edited", correction: "A better explanation." },
    });
    await t.db.annotation.update({ where: { id: b!.id }, data: { status: "rejected" } });
    await t.db.annotation.update({ where: { id: c!.id }, data: { status: "accepted" } });

    const all = await collect(
      sftRecords(t.db, undefined, { statuses: ["pending", "accepted", "edited"], settings }),
    );
    expect(all).toHaveLength((await t.db.annotation.count()) - 1); // the rejected one is left out
    const corrected = all.find((r) => r.metadata.stepId === a!.stepId)!;
    const target = ExperienceReply.parse(JSON.parse(corrected.messages.at(-1)!.content));
    expect(target.reasoning).toBe("A better explanation.");
    const step = await t.db.step.findUniqueOrThrow({ where: { id: a!.stepId } });
    expect(target).toMatchObject({
      next_state: step.nextState,
      reward: step.reward,
      done: step.done,
      valid: step.valid,
    });
    expect(corrected.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(corrected.messages[1]!.content).toContain(`## Action\n${step.action}`);
    expect(corrected.metadata).toMatchObject({
      corrected: true,
      status: "edited",
      promptVersion: EXPERIENCE_PROMPT_VERSION,
    });

    const reviewed = await collect(
      sftRecords(t.db, undefined, { statuses: ["accepted", "edited"], settings }),
    );
    expect(reviewed.map((r) => r.metadata.stepId).sort()).toEqual([a!.stepId, c!.stepId].sort());
  });

  it("uses a correction only while the trace stands edited, and counts its records before writing them", async () => {
    await writeTeacherTraces(t.db, undefined, new RetrievalTeacher(), { limit: 10_000, settings });
    const [a, b] = await t.db.annotation.findMany({ orderBy: { id: "asc" }, take: 2 });
    // Edited once, then accepted as the teacher wrote it: the old correction must not leak into the set.
    await t.db.annotation.update({
      where: { id: a!.id },
      data: { status: "accepted", correction: "Stale." },
    });
    await t.db.annotation.update({ where: { id: b!.id }, data: { status: "edited", correction: "Better." } });
    const options = { statuses: ["accepted", "edited"] as ("accepted" | "edited")[], settings };
    const records = await collect(sftRecords(t.db, undefined, options));
    expect(await countSftRecords(t.db, options)).toBe(records.length);
    expect(records).toHaveLength(2);
    const reasoning = (stepId: string) =>
      ExperienceReply.parse(
        JSON.parse(records.find((r) => r.metadata.stepId === stepId)!.messages.at(-1)!.content),
      ).reasoning;
    expect(reasoning(a!.stepId)).toBe(a!.teacherText);
    expect(reasoning(b!.stepId)).toBe("Better.");
    expect(records.map((r) => r.metadata.corrected).sort()).toEqual([false, true]);
    expect(await countSftRecords(t.db, { statuses: [] })).toBe(0);
    expect(await countSftRecords(t.db, { ...options, domain: "shop" })).toBe(0);
  });
});
