/**
 * Golden runs: short real-environment GRPO and PPO runs on the household and the shop, each pinned by the sha256
 * of everything its update wrote (every iteration's update stats, the last state with the optimizer's moments and
 * the minibatch generator, the final checkpoint and evaluation): the defaults, and the variants runs already used. The hashes were computed before the RL update
 * loop was refactored; a refactor that changes one floating-point operation or its order changes a hash. Change a
 * literal only when a run's numbers are meant to change, and say why in the commit.
 */
import { describe, expect, it } from "vitest";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { parseRunConfig } from "./config";
import { type IterationReport, type RunDeps, runTraining } from "./run";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A real-environment run small enough for a unit test, and the hash of what its updates produced. */
async function goldenHash(domain: RunDeps["domain"], overrides: Record<string, unknown>): Promise<string> {
  const config = parseRunConfig({
    method: "real",
    domain: domain.name,
    iterations: 3,
    tasksPerBatch: 3,
    groupSize: 4,
    seedTasks: 20,
    realTransitions: 100_000,
    evaluation: { interval: 10, episodes: 4 },
    ...overrides,
  });
  const reports: IterationReport[] = [];
  const result = await runTraining(config, { domain, onIteration: (r) => void reports.push(r) });
  expect(reports).toHaveLength(3);
  // A run whose updates all had zero advantages would pin nothing of the update.
  expect(reports.some((r) => r.update.informative > 0 && r.update.gradNorm > 0)).toBe(true);
  return sha256(
    JSON.stringify({
      updates: reports.map((r) => ({ iteration: r.iteration, update: r.update, success: r.rolloutSuccess })),
      state: reports.at(-1)!.state,
      checkpoint: result.checkpoint,
      final: result.final,
    }),
  );
}

const CLONED = { warmStart: "bc", demonstrations: 10 } as const;

describe("golden runs: the RL update's numbers, bit for bit", () => {
  it.each([
    // A blank policy never succeeds at the household's long tasks; a small behaviour-cloned start does.
    [
      "household GRPO",
      household,
      { algorithm: "grpo", ...CLONED },
      "ed44dd187cc0c885a3f24a55a40db92447e2cdc19c04c1b4842be9ee8445bc61",
    ],
    [
      "shop GRPO",
      shop,
      { algorithm: "grpo" },
      "eca9735082edec1cf4c8c63f7a44ddee873c2d333ca5f0427f636cc821e48fc3",
    ],
    [
      "household PPO",
      household,
      { algorithm: "ppo", ...CLONED },
      "77e6501b6545825878c111f6ba231e7a78ac9fde51ca38b4b2179cc1a73dd834",
    ],
    [
      "shop PPO",
      shop,
      { algorithm: "ppo" },
      "8c68a7ac5e2759d8e577fcae2be8849f972564934e233e56346939905d20048d",
    ],
    [
      "shop GRPO, KL penalty and per-decision aggregation",
      shop,
      { algorithm: "grpo", grpo: { klBeta: 0.04, aggregation: "decision" } },
      "55bf44124cde6a6d4b5f4b8a57f57c10ad3ac50ad7fefe9f719e8756fd84f348",
    ],
    [
      "shop PPO, raw advantages and unclipped value loss",
      shop,
      { algorithm: "ppo", ppo: { normalizeAdvantages: false, clipValueLoss: false } },
      "5f02170e1d14bfce1577c27f785163019b6274f9e9883d8ac10eaeb3e43feaae",
    ],
  ] as const)("%s", async (_name, domain, overrides, expected) => {
    expect(await goldenHash(domain, overrides)).toBe(expected);
  });
});
