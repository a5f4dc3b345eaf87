import { describe, expect, it } from "vitest";
import { TASK_TYPES } from "./catalog";
import { validateHouseholdGoal } from "./goal";
import { household } from "./index";
import { householdExpert } from "./policies";
import { householdTaskFromGoal } from "./tasks";
import { playEpisode } from "./testing";

const testTasks = household.tasks("test", 200);

async function successRate(policy = household.expert(), tasks = testTasks): Promise<number> {
  let wins = 0;
  for (const task of tasks) if ((await playEpisode(policy, task)).success) wins++;
  return wins / tasks.length;
}

describe("expert", () => {
  it.each(TASK_TYPES)("solves %s tasks with valid actions only", async (type) => {
    const tasks = household
      .tasks("train", 60)
      .filter((task) => validateHouseholdGoal(task.goal).type === type);
    expect(tasks.length).toBe(10);
    for (const task of tasks) {
      const { success, steps } = await playEpisode(household.expert(), task);
      expect(success, `${task.id}: ${task.instruction}`).toBe(true);
      expect(steps.at(-1)?.reward).toBe(1);
      expect(steps.every((step) => step.valid)).toBe(true);
    }
  });

  it("succeeds on >= 95% of 200 test tasks, searching rather than walking straight to the object", async () => {
    expect(await successRate()).toBeGreaterThanOrEqual(0.95);
    // The searching expert meets closed and empty receptacles on the way; the omniscient one takes fewer steps.
    let searching = 0;
    let omniscient = 0;
    for (const task of testTasks.slice(0, 60)) {
      searching += (await playEpisode(household.expert(), task)).steps.length;
      omniscient += (await playEpisode(householdExpert({ omniscient: true }), task)).steps.length;
    }
    expect(omniscient).toBeLessThan(searching);
  });

  it("solves curriculum variations built from goals", async () => {
    const task = householdTaskFromGoal(
      {
        type: "pick_two_obj_and_place",
        object: "soapbar",
        target: "toilet",
        room: { seed: 99, kind: "bathroom" },
      },
      { id: "household:gen:soap", split: "train" },
    );
    expect((await playEpisode(household.expert(), task)).success).toBe(true);
  });

  it("one expert serves interleaved episodes exactly as it serves them one by one", async () => {
    const tasks = testTasks.slice(0, 12);
    const expert = household.expert();
    const alone = [];
    for (const task of tasks) alone.push((await playEpisode(expert, task)).steps.map((s) => s.action));
    const together = await Promise.all(tasks.map((task) => playEpisode(expert, task)));
    expect(together.map((episode) => episode.steps.map((s) => s.action))).toEqual(alone);
  });
});

describe("random and noisy", () => {
  it("random rarely succeeds (< 10% of 200 test tasks) and only picks admissible commands", async () => {
    expect(await successRate(household.random(1))).toBeLessThan(0.1);
    const { steps } = await playEpisode(household.random(2), testTasks[0]!);
    expect(steps).toHaveLength(household.maxSteps);
    expect(steps.every((step) => step.valid && step.state.actions?.includes(step.action))).toBe(true);
  });

  it("random is deterministic under its seed and differs across seeds", async () => {
    const task = testTasks[3]!;
    const actions = async (seed: number) =>
      (await playEpisode(household.random(seed), task)).steps.map((s) => s.action);
    expect(await actions(5)).toEqual(await actions(5));
    expect(await actions(5)).not.toEqual(await actions(6));
  });

  it("noisy mixes in random actions yet the expert recovers most of the time", async () => {
    const tasks = testTasks.slice(0, 60);
    const noisy = household.noisy(3, 0.3);
    let wins = 0;
    let offExpert = 0;
    for (const task of tasks) {
      const { success, steps } = await playEpisode(noisy, task);
      if (success) wins++;
      const expert = household.expert();
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        if ((await expert.act(task, steps.slice(0, i), step.state)).action !== step.action) offExpert++;
      }
    }
    expect(offExpert).toBeGreaterThan(20);
    expect(wins / tasks.length).toBeGreaterThanOrEqual(0.9);
    expect(await successRate(household.noisy(3, 0), tasks)).toBe(1);
  });

  it("candidate actions are the observation's admissible commands", async () => {
    const task = testTasks[0]!;
    const observation = await household.createEnvironment().reset(task);
    expect(household.candidateActions(task, observation)).toEqual(observation.actions);
  });
});
