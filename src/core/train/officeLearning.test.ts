/**
 * The linear policy learns the office: cloning 20 expert episodes, then GRPO in the real environment (groups of 8
 * rollouts of 8 train tasks per iteration) lifts greedy success on 60 held-out test tasks. Measured: cloning alone
 * 40%, after 15 GRPO iterations 77%; a uniform policy gets 2%.
 */
import { describe, expect, it } from "vitest";
import { office } from "../envs/office";
import type { DecisionEpisode } from "../policy/decision";
import { LinearPolicy } from "../policy/linearPolicy";
import { replayDecisions } from "../policy/replayDecisions";
import { BehaviourCloning } from "../rl/bc";
import { Grpo } from "../rl/grpo";
import { rollout } from "../rollout";

const TEST_TASKS = office.tasks("test", 60);

async function testSuccess(policy: LinearPolicy): Promise<number> {
  let wins = 0;
  for (const task of TEST_TASKS) {
    const agent = policy.episode("eval", { greedy: true, record: false });
    wins += (await rollout(office.createEnvironment(), agent, task, office.maxSteps)).success ? 1 : 0;
  }
  return wins / TEST_TASKS.length;
}

describe("training on the office", () => {
  it("cloning 20 expert episodes, then 15 real GRPO iterations, raise held-out success", async () => {
    const policy = new LinearPolicy({ candidates: office.candidateActions, seed: 1 });
    const uniform = await testSuccess(policy);
    const decisions = [];
    for (const task of office.tasks("train", 20)) {
      const ep = await rollout(office.createEnvironment(), office.expert(), task, office.maxSteps);
      decisions.push(...replayDecisions(policy, task, ep.steps));
    }
    new BehaviourCloning(policy).fit(decisions);
    const cloned = await testSuccess(policy);
    const grpo = new Grpo(policy);
    const train = office.tasks("train", 400);
    for (let it = 0; it < 15; it++) {
      const groups: DecisionEpisode[][] = [];
      for (let t = 0; t < 8; t++) {
        const task = train[(it * 8 + t) % train.length];
        if (!task) throw new Error("no task");
        const group: DecisionEpisode[] = [];
        for (let g = 0; g < 8; g++) {
          const agent = policy.episode(`${it}:${t}:${g}`);
          const ep = await rollout(office.createEnvironment(), agent, task, office.maxSteps);
          const rewards = ep.steps.map((s) => s.reward);
          group.push({
            decisions: agent.decisions,
            rewards,
            totalReward: rewards.reduce((a, b) => a + b, 0),
          });
        }
        groups.push(group);
      }
      grpo.update(groups);
    }
    const trained = await testSuccess(policy);
    console.info(`office: uniform ${uniform}, cloned ${cloned.toFixed(2)}, after GRPO ${trained.toFixed(2)}`);
    expect(uniform).toBeLessThan(0.1);
    expect(cloned).toBeGreaterThan(uniform + 0.15);
    expect(trained).toBeGreaterThan(cloned + 0.1);
  }, 120_000);
});
