import { describe, expect, it } from "vitest";
import type { Task } from "../types";
import { TaskValueTable } from "./valueTable";

const task = (id: string): Task => ({ id, domain: "shop", instruction: id, split: "train", origin: "seed" });

describe("task value table", () => {
  it("starts from the first group, then moves halfway to each new group's variance", () => {
    const table = new TaskValueTable();
    expect(table.observe(0, "a", [0, 1, 0, 1]).value).toBe(0.25);
    // Mastered in iteration 1: half the value is left, a quarter after iteration 2.
    expect(table.observe(1, "a", [1, 1, 1, 1]).value).toBe(0.125);
    expect(table.observe(2, "a", [1, 1, 1, 1]).value).toBe(0.0625);
    expect(table.get("a")).toMatchObject({ seenCount: 3, lastIteration: 2, last: { successRate: 1 } });
  });

  it("gives the heatmap row of each group: count, mean, variance, success rate and running value", () => {
    const table = new TaskValueTable(0.5);
    const rows = table.observeIteration(4, [
      { taskId: "a", rewards: [1, 0] },
      { taskId: "b", rewards: [0, 0, 0] },
    ]);
    expect(rows).toEqual([
      { taskId: "a", iteration: 4, count: 2, meanReward: 0.5, variance: 0.25, successRate: 0.5, value: 0.25 },
      { taskId: "b", iteration: 4, count: 3, meanReward: 0, variance: 0, successRate: 0, value: 0 },
    ]);
  });

  it("lists tasks as candidates, unseen ones with seenCount 0", () => {
    const table = new TaskValueTable();
    table.observe(0, "a", [1, 0]);
    expect(table.candidates([task("a"), task("b")])).toEqual([
      { task: task("a"), value: 0.25, seenCount: 1 },
      { task: task("b"), value: 0, seenCount: 0 },
    ]);
  });

  it("round-trips through a snapshot, and rejects a corrupt one by name", () => {
    const table = new TaskValueTable(0.3);
    table.observe(0, "b", [1, 0, 0]);
    table.observe(0, "a", [1, 1]);
    const restored = TaskValueTable.fromSnapshot(JSON.parse(JSON.stringify(table.snapshot())));
    expect(restored.snapshot()).toEqual(table.snapshot());
    expect(restored.alpha).toBe(0.3);
    expect(() => TaskValueTable.fromSnapshot({ alpha: 0.5, entries: [{ taskId: "a", value: -1 }] })).toThrow(
      /entries\.0\.value/,
    );
  });

  it("refuses a bad alpha or iteration", () => {
    expect(() => new TaskValueTable(0)).toThrow(/alpha/);
    expect(() => new TaskValueTable().observe(-1, "a", [1])).toThrow(/iteration/);
  });
});
