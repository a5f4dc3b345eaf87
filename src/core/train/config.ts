import { z } from "zod";

/**
 * Everything a run is, validated: the method (DreamGym, DreamGym-S2R, or a comparison), the domain, the RL
 * algorithm and its knobs, the experience model's ablation switches, the curriculum and the evaluation schedule.
 * The same object comes from `train --config FILE` and from the UI's launch form.
 */
export const RunMethod = z.enum(["dreamgym", "dreamgym-s2r", "real", "bc", "untrained"]);
export type RunMethod = z.infer<typeof RunMethod>;

export const RunConfig = z.strictObject({
  name: z.string().max(200).default(""),
  method: RunMethod,
  domain: z.enum(["shop", "household"]),
  algorithm: z.enum(["grpo", "ppo"]).default("grpo"),
  /** Iterations in the synthetic environment (DreamGym), or in the real one (real-env training). */
  iterations: z.number().int().min(0).max(100_000).default(20),
  tasksPerBatch: z.number().int().min(1).max(1_000).default(8),
  /** Rollouts per task: the GRPO group. */
  groupSize: z.number().int().min(2).max(256).default(8),
  /** Train tasks 0..n-1 are the seed tasks (those the offline data covers). */
  seedTasks: z.number().int().min(1).max(1_000_000).default(300),
  seed: z.number().int().min(0).default(0),
  backends: z
    .strictObject({
      experience: z.enum(["embedded", "openai"]).default("embedded"),
      taskGenerator: z.enum(["embedded", "openai"]).default("embedded"),
    })
    .prefault({}),
  experience: z
    .strictObject({
      /** Demonstrations per step; 0 is the paper's "w/o replay". */
      k: z.number().int().min(0).max(64).default(8),
      historyWindow: z.number().int().min(0).max(100).default(4),
      /** false is the paper's "w/o reasoning". */
      reasoning: z.boolean().default(true),
      /** Retrieve only real (offline) experience, not the run's own synthetic transitions. */
      offlineOnly: z.boolean().default(true),
    })
    .prefault({}),
  curriculum: z
    .strictObject({
      /** false is the paper's "w/o task generation". */
      taskGeneration: z.boolean().default(true),
      /** Upper bound on the share of generated tasks per batch (λ). */
      lambda: z.number().min(0).max(1).default(0.25),
      parentsPerIteration: z.number().int().min(0).max(100).default(2),
      variationsPerParent: z.number().int().min(1).max(20).default(2),
    })
    .prefault({}),
  evaluation: z
    .strictObject({
      /** Evaluate on held-out real test tasks every this many iterations (and at the end). */
      interval: z.number().int().min(1).default(5),
      episodes: z.number().int().min(1).max(10_000).default(50),
      greedy: z.boolean().default(false),
    })
    .prefault({}),
  /** Real transitions for training: the S2R budget after DreamGym, or the real-env baseline's budget. */
  realTransitions: z.number().int().min(0).max(10_000_000).default(5_000),
  /**
   * Where the policy starts: blank, or behaviour-cloned on the offline demonstrations first (the paper's LLM
   * policies start with priors; a blank linear policy has none, which the household's 50-step tasks expose).
   */
  warmStart: z.enum(["none", "bc"]).default("none"),
  /** Behaviour cloning (and the bc warm start): expert demonstrations used. */
  demonstrations: z.number().int().min(1).max(100_000).default(200),
  learningRate: z.number().positive().max(1).default(0.01),
});
export type RunConfig = z.infer<typeof RunConfig>;

/** Parses a config, naming every bad field. */
export function parseRunConfig(value: unknown, where = "config"): RunConfig {
  const parsed = RunConfig.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`Invalid run ${where}:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
