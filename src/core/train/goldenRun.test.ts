/**
 * Golden runs of the whole training loop: short DreamGym and DreamGym-S2R runs (a synthetic phase with the embedded
 * experience model and task generator, a real phase, the interleaved schedule, pessimism), each pinned by the
 * sha256 of every iteration's report and the result. The hashes were computed before the loop was taken apart
 * into phases; a change that moves one episode, one update or one evaluation changes a hash. Change a literal only
 * when a run's numbers are meant to change, and say why in the commit. (golden.test.ts pins the RL update alone.)
 */
import { describe, expect, it } from "vitest";
import { embeddedTaskGenerator } from "../curriculum/embedded";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import { parseRunConfig } from "./config";
import { type IterationReport, runTraining } from "./run";
import { offlineMemoryBuffer, withoutLatency } from "./testing";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function goldenHash(
  domain: typeof shop | typeof household,
  config: Record<string, unknown>,
): Promise<string> {
  const reports: IterationReport[] = [];
  const result = await runTraining(
    parseRunConfig({
      domain: domain.name,
      iterations: 3,
      tasksPerBatch: 3,
      groupSize: 3,
      seedTasks: 10,
      realTransitions: 60,
      evaluation: { interval: 2, episodes: 4, simulated: 4 },
      ...config,
    }),
    {
      domain,
      buffer: await offlineMemoryBuffer(domain, 10),
      model: new RetrievalExperienceModel({ reasoning: true }),
      generator: embeddedTaskGenerator(domain === shop ? "shop" : "household"),
      onIteration: (r) => void reports.push(r),
    },
  );
  expect(reports.length).toBeGreaterThanOrEqual(3);
  const { seconds: _seconds, ...rest } = result;
  return sha256(JSON.stringify({ reports: withoutLatency(reports), result: rest }));
}

const CLONED = { warmStart: "bc", demonstrations: 10 } as const;

describe("golden runs: the training loop's numbers, bit for bit", () => {
  it.each([
    [
      "household DreamGym-S2R GRPO",
      household,
      { method: "dreamgym-s2r", ...CLONED },
      "21aa21324ffe423e1cab9022fb40007bebd57e57d0dba7e0c94f098f5cff41be",
    ],
    [
      "household DreamGym-S2R GRPO, interleaved and learnt by the model",
      household,
      { method: "dreamgym-s2r", ...CLONED, experimental: { realInterleave: 1, learnFromReal: true } },
      "2dc31f4a4c0909711ae00e44a112954dae1e71b48dad3861db5410e9a7556d31",
    ],
    [
      "shop DreamGym-S2R PPO, pessimism",
      shop,
      {
        method: "dreamgym-s2r",
        algorithm: "ppo",
        experimental: { pessimism: { mode: "penalty", penalty: 1 } },
      },
      "53489e5389924f30f4469b98af3f8a58e0346fa8df321eec021f556279ccfd3a",
    ],
    [
      "shop DreamGym GRPO without task generation",
      shop,
      { method: "dreamgym", curriculum: { taskGeneration: false } },
      "ece8662500d82aaa42e8a7a4609c82dacaeed328e0070d5ebbb9f3596aa5096c",
    ],
  ] as const)(
    "%s",
    async (_name, domain, config, expected) => {
      expect(await goldenHash(domain, config)).toBe(expected);
    },
    60_000,
  );
});
