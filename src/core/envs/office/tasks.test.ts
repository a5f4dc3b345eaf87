import { describe, expect, it } from "vitest";
import { checkOfficeGoal, validateOfficeGoal } from "./goal";
import { office } from "./index";
import { OFFICE_KINDS } from "./tasks";

describe("office tasks", () => {
  it("keeps train and test worlds apart (even and odd seeds) and every task id stable", () => {
    const train = office.tasks("train", 600);
    const test = office.tasks("test", 200);
    expect(train.every((t) => validateOfficeGoal(t.goal).world % 2 === 0)).toBe(true);
    expect(test.every((t) => validateOfficeGoal(t.goal).world % 2 === 1)).toBe(true);
    expect(train[17]?.id).toBe("office:train:17");
    // Worlds differ in every task; the words of a request repeat now and then ("Cancel the team lunch on Friday").
    expect(new Set(train.map((t) => t.instruction)).size).toBeGreaterThan(500);
    expect(new Set(train.map((t) => JSON.stringify(t.goal))).size).toBe(600);
    // Validation tasks (train from 2,000 on) exist and are valid too.
    expect(checkOfficeGoal(office.task("train", 2500).goal).ok).toBe(true);
  });

  it("has every kind in equal shares and a third of two-change requests", () => {
    const goals = office.tasks("train", 600).map((t) => validateOfficeGoal(t.goal));
    expect(goals.filter((g) => g.changes.length === 2)).toHaveLength(200);
    for (const kind of OFFICE_KINDS) {
      const count = goals.filter((g) => g.changes.some((c) => c.kind === kind)).length;
      expect(count).toBe(200);
    }
  });

  it("describes records by what a lookup shows, never by id", () => {
    for (const task of office.tasks("test", 60)) {
      expect(task.instruction).not.toMatch(/\d/);
      expect(task.instruction).toMatch(/^[A-Z].*\.$/);
    }
    expect(office.task("train", 0).instruction).toMatch(/^Close the open \w+ ticket from \w+ \w+\.$/);
    expect(office.task("train", 1).instruction).toMatch(
      /^Cancel the [a-z ]+ on (Monday|Tuesday|Wednesday|Thursday|Friday)\.$/,
    );
  });

  it("rejects two changes that are the same call", () => {
    const goal = validateOfficeGoal(office.task("train", 0).goal);
    const change = goal.changes[0];
    expect(checkOfficeGoal({ world: goal.world, changes: [change, change] })).toMatchObject({ ok: false });
  });
});
