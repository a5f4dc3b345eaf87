import { describe, expect, it } from "vitest";
import type { ReplayBuffer, SimilarFilter } from "../replay/buffer";
import type { Step, Task } from "../types";
import { pickSteps } from "./heldOutFidelity";
import { type HeldOutLog, spreadOverTasks, trainOnly } from "./heldOutLogs";

const task = (id: string): Task => ({ id, domain: "d", instruction: id, split: "test", origin: "imported" });
const step = (t: number): Step => ({
  state: { text: `s${t}` },
  action: `a${t}`,
  next: { text: `s${t + 1}` },
  reward: 0,
  done: false,
  success: false,
  valid: true,
});
const log = (taskId: string, length: number, policy = "expert"): HeldOutLog => ({
  task: task(taskId),
  steps: Array.from({ length }, (_, t) => step(t)),
  success: true,
  policy,
});

describe("held-out logs", () => {
  const logs = [log("a", 3), log("a", 2, "noisy"), log("a", 4, "random"), log("b", 2), log("c", 5)];

  it("spreads a cap over the tasks: each task's first log, then each one's second", () => {
    const spread = spreadOverTasks(logs, 4);
    expect(spread.map((l) => `${l.task.id}:${l.policy}`)).toEqual([
      "a:expert",
      "b:expert",
      "c:expert",
      "a:noisy",
    ]);
    expect(spreadOverTasks(logs, 100)).toHaveLength(logs.length);
  });

  it("picks steps a log at a time, each log's last step first, up to the cap", () => {
    const picks = pickSteps([log("a", 3), log("b", 1), log("c", 2)], 5);
    expect(picks.map((p) => `${p.log.task.id}${p.t}`)).toEqual(["a2", "b0", "c1", "a0", "c0"]);
    expect(pickSteps(logs, 1000)).toHaveLength(16);
  });

  it("reads the replay buffer without the held-out tasks, and never writes to it", async () => {
    const filters: SimilarFilter[] = [];
    const inner: ReplayBuffer = {
      add: async () => {},
      similar: async (_q, _k, filter = {}) => {
        filters.push(filter);
        return [];
      },
    };
    const buffer = trainOnly(inner, ["a", "b"]);
    await buffer.similar({ domain: "d", state: "s", action: "x" }, 4, {
      sources: ["offline"],
      excludeTaskIds: ["z"],
    });
    expect(filters).toEqual([{ sources: ["offline"], excludeTaskIds: ["z", "a", "b"] }]);
    await expect(buffer.add([])).rejects.toThrow(/never add/);
  });
});
