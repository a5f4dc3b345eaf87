import { describe, expect, it } from "vitest";
import type { Policy, Task } from "../../types";
import { shop } from "./index";
import { SEARCH_TEMPLATE } from "./pages";
import { searchQueries, withoutPriceClause } from "./queries";
import { runEpisode } from "./testing";

const testTasks = shop.tasks("test", 200);

async function successRate(policy: Policy, tasks: readonly Task[]): Promise<number> {
  let wins = 0;
  for (const task of tasks) {
    const { last } = await runEpisode(shop.createEnvironment(), policy, task);
    if (last.success) wins++;
  }
  return wins / tasks.length;
}

describe("reference policies on 200 test tasks", () => {
  it("expert succeeds at least 95% of the time", async () => {
    expect(await successRate(shop.expert(), testTasks)).toBeGreaterThanOrEqual(0.95);
  });

  it("random succeeds less than 10% of the time", async () => {
    expect(await successRate(shop.random(1), testTasks)).toBeLessThan(0.1);
  });

  it("noisy expert sits in between and never exceeds the step limit", async () => {
    const rate = await successRate(shop.noisy(1, 0.3), testTasks.slice(0, 100));
    expect(rate).toBeGreaterThan(0.5);
    expect(rate).toBeLessThan(1);
  });
});

describe("policies are functions of (task, history, observation)", () => {
  it("random is deterministic under its seed and differs across seeds", async () => {
    const task = testTasks[0] as Task;
    const run = async (seed: number) =>
      (await runEpisode(shop.createEnvironment(), shop.random(seed), task)).steps.map((s) => s.action);
    expect(await run(5)).toEqual(await run(5));
    const others = await Promise.all([6, 7, 8].map(run));
    expect(others.some((a) => JSON.stringify(a) !== JSON.stringify(others[0]))).toBe(true);
  });

  it("one expert object serves interleaved episodes", async () => {
    const policy = shop.expert();
    const tasks = testTasks.slice(0, 4);
    const envs = tasks.map(() => shop.createEnvironment());
    const obs = await Promise.all(tasks.map((t, i) => envs[i]?.reset(t)));
    const histories = tasks.map(() => [] as Parameters<Policy["act"]>[1]);
    const done = tasks.map(() => false);
    const success = tasks.map(() => false);
    for (let step = 0; step < shop.maxSteps && done.includes(false); step++) {
      for (let i = 0; i < tasks.length; i++) {
        const o = obs[i];
        const env = envs[i];
        const task = tasks[i];
        const history = histories[i];
        if (done[i] || !o || !env || !task || !history) continue;
        const { action } = await policy.act(task, history, o);
        const r = await env.step(action);
        history.push({
          state: o,
          action,
          next: r.observation,
          reward: r.reward,
          done: r.done,
          success: r.success,
          valid: r.valid,
        });
        obs[i] = r.observation;
        done[i] = r.done;
        success[i] = r.success;
      }
    }
    expect(success).toEqual([true, true, true, true]);
  });

  it("noisy with epsilon 0 is the expert, with epsilon 1 only picks candidates", async () => {
    const task = testTasks[1] as Task;
    const expert = await runEpisode(shop.createEnvironment(), shop.expert(), task);
    const noisy0 = await runEpisode(shop.createEnvironment(), shop.noisy(3, 0), task);
    expect(noisy0.steps.map((s) => s.action)).toEqual(expert.steps.map((s) => s.action));
    const noisy1 = await runEpisode(shop.createEnvironment(), shop.noisy(3, 1), task);
    for (const s of noisy1.steps) expect(shop.candidateActions(task, s.state)).toContain(s.action);
    expect(() => shop.noisy(1, 2)).toThrow(/epsilon/);
  });
});

describe("candidateActions", () => {
  it("replaces the search template with 3-5 concrete queries from the instruction", async () => {
    for (const task of testTasks.slice(0, 50)) {
      const obs = await shop.createEnvironment().reset(task);
      const candidates = shop.candidateActions(task, obs);
      expect(candidates).not.toContain(SEARCH_TEMPLATE);
      expect(candidates.length).toBeGreaterThanOrEqual(3);
      expect(candidates.length).toBeLessThanOrEqual(5);
      for (const c of candidates) {
        expect(c).toMatch(/^search\[.+\]$/);
        expect(c).not.toContain("price lower than");
      }
      expect(new Set(candidates).size).toBe(candidates.length);
    }
  });

  it("builds queries from the noun phrase and attributes, without the price clause", () => {
    const instruction =
      "i need long lasting and paraben free shampoo in size 8.4 fl oz (pack of 1), and price lower than 30.00 dollars";
    expect(withoutPriceClause(instruction)).toBe(
      "i need long lasting and paraben free shampoo in size 8.4 fl oz (pack of 1)",
    );
    const queries = searchQueries(instruction);
    expect(queries[0]).toBe("long lasting and paraben free shampoo in size 8.4 fl oz (pack of 1)");
    expect(queries).toContain("shampoo");
    expect(queries).toContain("long lasting paraben free shampoo");
    expect(queries).toContain("shampoo 8.4 fl oz (pack of 1)");
  });

  it("elsewhere is exactly the admissible actions", async () => {
    const task = testTasks[2] as Task;
    const env = shop.createEnvironment();
    await env.reset(task);
    const r = await env.step("search[shampoo]");
    expect(shop.candidateActions(task, r.observation)).toEqual(r.observation.actions);
  });
});
