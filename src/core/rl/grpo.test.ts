import { describe, expect, it } from "vitest";
import type { Decision, DecisionEpisode } from "../policy/decision";
import { LinearPolicy } from "../policy/linearPolicy";
import { Grpo } from "./grpo";
import { clippedSurrogate, k3Kl } from "./surrogate";
import { BanditEnvironment, banditCandidates, banditTask } from "./testing";

const EPS = 0.2;

describe("clipped surrogate", () => {
  it("pushes log pi up for a positive advantage and down for a negative one", () => {
    // dL/dlog pi < 0 means gradient descent raises log pi.
    expect(clippedSurrogate(-1, -1, 2, EPS).dLogprob).toBeCloseTo(-2, 12);
    expect(clippedSurrogate(-1, -1, -2, EPS).dLogprob).toBeCloseTo(2, 12);
  });

  it("is flat once the ratio is past the clip in the advantage's direction", () => {
    const up = Math.log(1.3); // ratio 1.3 > 1 + eps
    const down = Math.log(0.7); // ratio 0.7 < 1 - eps
    expect(clippedSurrogate(up, 0, 1, EPS)).toMatchObject({ dLogprob: 0, clipped: true });
    expect(clippedSurrogate(up, 0, 1, EPS).loss).toBeCloseTo(-1.2, 12);
    expect(clippedSurrogate(down, 0, -1, EPS)).toMatchObject({ dLogprob: 0, clipped: true });
    // Past the clip in the other direction the gradient still acts (the min picks the unclipped, worse term).
    expect(clippedSurrogate(down, 0, 1, EPS).dLogprob).toBeCloseTo(-0.7, 12);
    expect(clippedSurrogate(up, 0, -1, EPS).dLogprob).toBeCloseTo(1.3, 12);
  });

  it("k3 is zero at the reference and positive elsewhere", () => {
    expect(k3Kl(-0.5, -0.5)).toEqual({ kl: 0, dLogprob: 0 });
    expect(k3Kl(-0.5, -1).kl).toBeGreaterThan(0);
    // Above the reference the penalty pulls log pi down (positive derivative).
    expect(k3Kl(-0.5, -1).dLogprob).toBeGreaterThan(0);
  });
});

async function banditState() {
  const policy = new LinearPolicy({ candidates: banditCandidates, dimension: 2 ** 12 });
  const task = banditTask("train", 0);
  const obs = await new BanditEnvironment().reset(task);
  return { policy, task, obs };
}

function episodeOf(decision: Omit<Decision, "logprob">, logprob: number, reward: number) {
  const d: Decision = { ...decision, logprob };
  return { decisions: [d], rewards: [reward], totalReward: reward } satisfies DecisionEpisode;
}

describe("Grpo.update", () => {
  it("raises the probability of the rewarded choice and lowers the unrewarded one", async () => {
    const { policy, task, obs } = await banditState();
    const f = policy.featurize(task, [], obs);
    const before = policy.logprobs(f.rows);
    const base = { rows: f.rows, actions: f.actions, state: f.state, step: 0 };
    const good = episodeOf({ ...base, chosen: 0 }, before[0] as number, 1);
    const bad = episodeOf({ ...base, chosen: 1 }, before[1] as number, 0);
    new Grpo(policy, { epochs: 1, minibatches: 1 }).update([[good, bad]]);
    const after = policy.logprobs(f.rows);
    expect(after[0]).toBeGreaterThan(before[0] as number);
    expect(after[1]).toBeLessThan(before[1] as number);
  });

  it("leaves the weights alone when every ratio is already clipped", async () => {
    const { policy, task, obs } = await banditState();
    const f = policy.featurize(task, [], obs);
    const now = policy.logprobs(f.rows);
    const base = { rows: f.rows, actions: f.actions, state: f.state, step: 0 };
    // Old log-probs chosen so the rewarded choice's ratio is 1.5 (> 1 + eps) and the other's 0.5 (< 1 - eps).
    const good = episodeOf({ ...base, chosen: 0 }, (now[0] as number) - Math.log(1.5), 1);
    const bad = episodeOf({ ...base, chosen: 1 }, (now[1] as number) - Math.log(0.5), 0);
    const weights = policy.weights.slice();
    const stats = new Grpo(policy, { epochs: 1, minibatches: 1 }).update([[good, bad]]);
    expect(stats.clipFraction).toBe(1);
    expect(stats.gradNorm).toBe(0);
    expect(policy.weights).toEqual(weights);
  });

  it("with a KL penalty, pulls a drifted policy back toward the reference", async () => {
    const { policy, task, obs } = await banditState();
    const reference = policy.clone();
    const f = policy.featurize(task, [], obs);
    // Drift: make candidate 0 likelier than the reference says, then update on a zero-advantage group.
    new Grpo(policy, { epochs: 1, minibatches: 1 }).update([
      [
        episodeOf(
          { rows: f.rows, actions: f.actions, state: f.state, step: 0, chosen: 0 },
          policy.logprobs(f.rows)[0] as number,
          1,
        ),
        episodeOf(
          { rows: f.rows, actions: f.actions, state: f.state, step: 0, chosen: 1 },
          policy.logprobs(f.rows)[1] as number,
          0,
        ),
      ],
    ]);
    const drifted = policy.logprobs(f.rows)[0] as number;
    const ref = reference.logprobs(f.rows)[0] as number;
    expect(drifted).toBeGreaterThan(ref);
    const d = { rows: f.rows, actions: f.actions, state: f.state, step: 0, chosen: 0 };
    const grpo = new Grpo(policy, { epochs: 1, minibatches: 1, klBeta: 1 }, reference);
    const stats = grpo.update([[episodeOf(d, drifted, 1), episodeOf(d, drifted, 1)]]);
    expect(stats.refKl).toBeGreaterThan(0);
    expect(policy.logprobs(f.rows)[0]).toBeLessThan(drifted);
  });

  it("refuses a KL penalty without a reference policy", async () => {
    const { policy } = await banditState();
    expect(() => new Grpo(policy, { klBeta: 0.04 })).toThrow(/reference/);
  });
});
