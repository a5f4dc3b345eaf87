import { describe, expect, it } from "vitest";
import { validateOfficeGoal } from "./goal";
import { office } from "./index";
import { OFFICE_KINDS } from "./tasks";
import { playEpisode } from "./testing";

const testTasks = office.tasks("test", 300);

async function successRate(policy = office.expert(), tasks = testTasks): Promise<number> {
  let wins = 0;
  for (const task of tasks) if ((await playEpisode(policy, task)).success) wins++;
  return wins / tasks.length;
}

describe("reference policies", () => {
  it.each(OFFICE_KINDS)(
    "the expert makes %s changes with valid calls, looking each record up first",
    async (kind) => {
      const tasks = office
        .tasks("train", 60)
        .filter((t) => validateOfficeGoal(t.goal).changes.some((c) => c.kind === kind));
      expect(tasks.length).toBeGreaterThanOrEqual(10);
      for (const task of tasks) {
        const { success, steps } = await playEpisode(office.expert(), task);
        expect(success, `${task.id}: ${task.instruction}`).toBe(true);
        expect(steps.every((s) => s.valid)).toBe(true);
        expect(steps.length).toBeGreaterThanOrEqual(2);
        expect(steps[0]?.action).toMatch(/^(search_tickets|list_events|list_files)\(/);
      }
    },
  );

  it("expert >= 95%, noisy between, random < 10% on 300 test tasks", async () => {
    const expert = await successRate();
    const noisy = await successRate(office.noisy(2, 0.3));
    const random = await successRate(office.random(3));
    expect(expert).toBeGreaterThanOrEqual(0.95);
    expect(random).toBeLessThan(0.1);
    expect(noisy).toBeGreaterThan(random + 0.3);
    expect(noisy).toBeLessThan(expert);
  });

  it("offers at most 30 calls in any state", async () => {
    for (const task of testTasks.slice(0, 100)) {
      const { steps } = await playEpisode(office.random(7), task);
      for (const step of steps) {
        expect(step.state.actions?.length ?? 0).toBeGreaterThan(0);
        expect(step.state.actions?.length ?? 0).toBeLessThanOrEqual(30);
        expect(office.candidateActions(task, step.state)).toEqual(step.state.actions);
      }
    }
  });

  it("one expert serves interleaved episodes exactly as it serves them one by one", async () => {
    const tasks = testTasks.slice(0, 12);
    const alone = [];
    for (const task of tasks)
      alone.push((await playEpisode(office.expert(), task)).steps.map((s) => s.action));
    const together = await Promise.all(tasks.map((task) => playEpisode(office.expert(), task)));
    expect(together.map((r) => r.steps.map((s) => s.action))).toEqual(alone);
  });

  it("random play is reproducible under its seed and differs across seeds", async () => {
    const task = testTasks[3];
    if (!task) throw new Error("no task");
    const a = await playEpisode(office.random(1), task);
    const b = await playEpisode(office.random(1), task);
    const c = await playEpisode(office.random(2), task);
    expect(b.steps.map((s) => s.action)).toEqual(a.steps.map((s) => s.action));
    expect(c.steps.map((s) => s.action)).not.toEqual(a.steps.map((s) => s.action));
  });
});
