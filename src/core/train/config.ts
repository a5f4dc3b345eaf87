import { z } from "zod";
import { BACKENDS } from "../backends";
import { CURRICULUM_DOMAINS, isCurriculumDomain } from "../curriculum/domainGoals";
import { TASK_GENERATORS } from "../curriculum/generator";
import { DomainName, REAL_DOMAIN_NAMES } from "../envs/names";
import { oracleProblem } from "../experience/oracle";
import { BC_DEFAULTS } from "../rl/bc";
import { OUTCOME_ESTIMATORS } from "../rl/estimators";
import { GRPO_DEFAULTS } from "../rl/grpo";
import { POLICY_LOSS_NAMES } from "../rl/policyLosses";
import { PPO_DEFAULTS } from "../rl/ppo";
import { displayName } from "../util/names";
import { HELD_OUT_TASKS, VALIDATION_OFFSET } from "./heldOut";
import { upgradeStoredConfig } from "./legacyConfig";
import { RL_ALGORITHMS, RUN_METHODS, taskGeneration } from "./methods";

/**
 * Everything a run is, validated: the method (DreamGym, DreamGym-S2R, or a comparison), the domain, the RL
 * algorithm and its knobs, the experience model's ablation switches, the curriculum and the evaluation schedule.
 * The same object comes from `train --config FILE` and from the UI's launch form.
 */
export const RunMethod = z.enum(RUN_METHODS);
export type RunMethod = z.infer<typeof RunMethod>;

/** Shared by GRPO and PPO: how one batch becomes updates (rl/update.ts, the one update loop). */
const clippedUpdate = (defaults: typeof GRPO_DEFAULTS | typeof PPO_DEFAULTS) => ({
  /**
   * The policy loss (rl/policyLosses.ts). "clip": PPO's clipped surrogate (Schulman et al. 2017), the ratio kept in
   * [1 − clipEpsilon, 1 + clipEpsilon]. "clip-higher": DAPO's asymmetric clip (Yu et al. 2025), in
   * [1 − clipEpsilon, 1 + clipEpsilonHigh], so unlikely choices that paid off gain probability faster.
   */
  policyLoss: z.enum(POLICY_LOSS_NAMES).default(defaults.policyLoss),
  /** Clip range of the probability ratio, its lower side under clip-higher (and of PPO's value change). */
  clipEpsilon: z.number().positive().max(10).default(defaults.clipEpsilon),
  /**
   * clip-higher's upper clip range, read by no other policy loss; DAPO used 0.28 with 0.2 below (TRL's
   * epsilon_high, verl's clip_ratio_high).
   */
  clipEpsilonHigh: z.number().positive().max(10).default(defaults.clipEpsilonHigh),
  /** Passes over each batch (TRL's num_iterations, verl's ppo_epochs). */
  epochs: z.number().int().min(1).max(100).default(defaults.epochs),
  /** Minibatches per epoch: one Adam step each (verl's batch over ppo_mini_batch_size). */
  minibatches: z.number().int().min(1).max(1_000).default(defaults.minibatches),
  /** Weight of the entropy bonus (CleanRL's ent_coef, verl's entropy_coeff). */
  entropyCoef: z.number().min(0).max(10).default(defaults.entropyCoef),
  /** Global gradient-norm clip (CleanRL's and TRL's max_grad_norm). */
  maxGradNorm: z.number().positive().max(1_000).default(defaults.maxGradNorm),
});

/**
 * The fields as written in a config file or the form. RunConfig resolves the defaults that depend on the method
 * (task generation), so that what a run stores says everything it did.
 */
export const RunConfigFields = z.strictObject({
  name: displayName(200, false).default(""),
  method: RunMethod,
  /** A built-in domain, or an imported one (synthetic-only methods, evaluated by proxies). */
  domain: DomainName,
  algorithm: z.enum(RL_ALGORITHMS).default("grpo"),
  /**
   * Iterations in the synthetic environment (DreamGym, S2R's first phase); the real-env baseline's cap. The table
   * sets it high and lets `syntheticTransitions` end the phase (the paper's budgets are in transitions).
   */
  iterations: z.number().int().min(1).max(100_000).default(20),
  /** Tasks per iteration, chosen by the curriculum (paper §4.3; TRL's per-step prompts). */
  tasksPerBatch: z.number().int().min(1).max(1_000).default(8),
  /** Rollouts per task: the GRPO group (TRL's num_generations, verl's rollout.n), and the task value's sample. */
  groupSize: z.number().int().min(2).max(256).default(8),
  /** Train tasks 0..n-1 are the seed tasks (those the offline data covers). */
  seedTasks: z.number().int().min(1).max(1_000_000).default(300),
  seed: z.number().int().min(0).default(0),
  rollouts: z
    .strictObject({
      /**
       * Episodes of an iteration in flight at once (every task's group together). With an openai backend this is
       * how many requests overlap; results are the same at any value.
       */
      concurrency: z.number().int().min(1).max(1_024).default(8),
    })
    .prefault({}),
  backends: z
    .strictObject({
      experience: z.enum(BACKENDS).default("embedded"),
      taskGenerator: z.enum(BACKENDS).default("embedded"),
    })
    .prefault({}),
  experience: z
    .strictObject({
      /**
       * Demonstrations retrieved from the replay buffer per step (paper §4.1, top-k by similarity); 0 is the
       * paper's "w/o replay" (Table 3), which for the embedded model leaves nothing to predict from.
       */
      k: z.number().int().min(0).max(64).default(8),
      /** Past steps of the episode shown to the experience model (paper §4.1: it conditions on the history). */
      historyWindow: z.number().int().min(0).max(100).default(4),
      /** The model reasons before it predicts (paper §4.1, chain-of-thought); false is "w/o reasoning" (Table 3). */
      reasoning: z.boolean().default(true),
      /**
       * Buffer enrichment (paper §4.1: the replay buffer is "continuously enriched" with the synthetic transitions
       * the model writes). On: each synthetic iteration's transitions join the run's replay buffer, the in-memory
       * one the run retrieves from (server/replay/offlineBuffer.ts; LanceDB is the UI's copy and is not read by
       * training), so later steps may retrieve them beside the offline data. Off: retrieval reads the offline data
       * (and, with experimental.learnFromReal, the run's real transitions) alone. Either way every synthetic step
       * is stored with the run. Measured on validation tasks: docs/experiments.md "Buffer enrichment".
       */
      enrichBuffer: z.boolean().default(false),
    })
    .prefault({}),
  curriculum: z
    .strictObject({
      /**
       * Whether the curriculum writes variations of high-value tasks; false is the paper's "w/o task generation".
       * Unset: the method's default (METHODS[method].taskGenerationByDefault: on for DreamGym, off for real-env).
       */
      taskGeneration: z.boolean().optional(),
      /**
       * Who writes the variations. "blind" (paper §4.3): new instructions from the seed tasks' instructions alone
       * (curriculum/blindVariations.ts), in any domain; nothing checks them against the real environment, whose
       * goal they do not have, so they play in the synthetic environment only. "grounded": reads the real
       * environment (the shop's catalog and goal checker, the household's room generator, the office's world) to
       * write goals the real environment can score; built-in domains only (curriculum/domainGoals.ts). Unset: "blind", or "grounded" with the openai
       * task generator, which writes goals that the domain's schema checks.
       */
      generator: z.enum(TASK_GENERATORS).optional(),
      /** Upper bound on the share of generated tasks per batch (paper §4.3's λ). */
      lambda: z.number().min(0).max(1).default(0.25),
      /** The highest-value tasks (reward variance within their group, paper §4.3) varied per iteration. */
      parentsPerIteration: z.number().int().min(0).max(100).default(2),
      /** Variations written per parent. */
      variationsPerParent: z.number().int().min(1).max(20).default(2),
    })
    .prefault({}),
  evaluation: z
    .strictObject({
      /** Evaluate on held-out real test tasks every this many iterations (and at the end). */
      interval: z.number().int().min(1).default(5),
      episodes: z.number().int().min(1).max(10_000).default(50),
      /**
       * The held-out tasks evaluated on (heldOut.ts): the real test tasks, or validation tasks (train tasks from
       * 2,000 on, never trained on) to choose settings by without looking at the test tasks. Built-in domains only.
       */
      tasks: z.enum(HELD_OUT_TASKS).default("test"),
      greedy: z.boolean().default(false),
      /**
       * At every evaluation point, the same policy also plays the first this many of those test tasks in the
       * synthetic environment (methods with a synthetic phase): synthetic minus real success is the sim-to-real
       * gap, how much of what the policy learned only pleases the experience model. 0: not measured.
       */
      simulated: z.number().int().min(0).max(10_000).default(50),
      /**
       * For an imported copy of a built-in domain (its logs imported under another name): after training, the
       * final policy is scored once on that built-in domain's real test tasks, to check how far the proxies can be
       * trusted. The run itself never touches the real environment.
       */
      groundTruth: z.enum(REAL_DOMAIN_NAMES).optional(),
      /**
       * An imported domain's extra proxy: an LLM judge (the openai endpoint's judge model) reads each evaluation
       * episode and says whether its final state shows the instruction done. Built-in domains have real success.
       */
      judge: z.boolean().default(false),
    })
    .prefault({}),
  /**
   * Synthetic transitions a synthetic phase may end at: it stops after the iteration that reaches this many, or
   * after `iterations`, whichever comes first. 0: iterations alone decide (the default).
   */
  syntheticTransitions: z.number().int().min(0).max(100_000_000).default(0),
  /** Real transitions for training: the S2R budget after DreamGym, or the real-env baseline's budget. */
  realTransitions: z.number().int().min(0).max(10_000_000).default(5_000),
  /**
   * Where the policy starts: blank, or behaviour-cloned on the offline demonstrations first (the paper's LLM
   * policies start with priors; a blank linear policy has none, which the household's 50-step tasks expose).
   */
  warmStart: z.enum(["none", "bc"]).default("none"),
  /** Behaviour cloning (and the bc warm start): expert demonstrations used. */
  demonstrations: z.number().int().min(1).max(100_000).default(200),
  /** Adam step size of the RL update, GRPO or PPO (TRL's learning_rate, verl's actor.optim.lr). */
  learningRate: z.number().positive().max(1).default(GRPO_DEFAULTS.learningRate),
  grpo: z
    .strictObject({
      ...clippedUpdate(GRPO_DEFAULTS),
      /**
       * The advantage estimator (rl/estimators.ts). "grpo": the outcome reward minus its group's mean, over the
       * group's std + advantageEpsilon (DeepSeekMath, Shao et al. 2024). "dr-grpo": minus the mean only (Dr. GRPO,
       * Liu et al. 2025: the std favours groups whose rewards barely differ; TRL's scale_rewards "none").
       */
      advantageEstimator: z.enum(OUTCOME_ESTIMATORS).default(GRPO_DEFAULTS.advantageEstimator),
      /**
       * Weight of the k3 KL penalty to the policy RL started from, after any warm start (DeepSeekMath; TRL's beta,
       * verl's kl_loss_coef); 0 turns it off, as TRL's default now does.
       */
      klBeta: z.number().min(0).max(10).default(GRPO_DEFAULTS.klBeta),
      /** Added to the group's reward std in the "grpo" advantage. */
      advantageEpsilon: z.number().positive().max(1).default(GRPO_DEFAULTS.advantageEpsilon),
      /**
       * "episode": each episode weighs 1 whatever its length (DeepSeekMath; TRL's loss_type "grpo", verl's
       * seq-mean-token-mean); "decision": each decision does (DAPO; TRL's "dapo", verl's token-mean).
       */
      aggregation: z.enum(["episode", "decision"]).default(GRPO_DEFAULTS.aggregation),
    })
    .prefault({}),
  ppo: z
    .strictObject({
      ...clippedUpdate(PPO_DEFAULTS),
      /** Discount; outcome rewards come at the end, so below 1 a shorter success is worth more. */
      gamma: z.number().min(0).max(1).default(PPO_DEFAULTS.gamma),
      /** GAE's λ (Schulman et al. 2016): 1 is Monte Carlo returns, 0 one-step TD. */
      gaeLambda: z.number().min(0).max(1).default(PPO_DEFAULTS.gaeLambda),
      /** Weight of the critic's loss (CleanRL's vf_coef). */
      valueCoef: z.number().min(0).max(100).default(PPO_DEFAULTS.valueCoef),
      /** Normalise advantages within each minibatch (CleanRL's norm_adv). */
      normalizeAdvantages: z.boolean().default(PPO_DEFAULTS.normalizeAdvantages),
      /** Clip the value update around the old value (CleanRL's clip_vloss). */
      clipValueLoss: z.boolean().default(PPO_DEFAULTS.clipValueLoss),
    })
    .prefault({}),
  /** Behaviour cloning: the bc method and the bc warm start. */
  bc: z
    .strictObject({
      learningRate: z.number().positive().max(1).default(BC_DEFAULTS.learningRate),
      epochs: z.number().int().min(1).max(1_000).default(BC_DEFAULTS.epochs),
      batchSize: z.number().int().min(1).max(100_000).default(BC_DEFAULTS.batchSize),
      /** L2 penalty on the weights a batch touches. */
      l2: z.number().min(0).max(10).default(BC_DEFAULTS.l2),
      maxGradNorm: z.number().positive().max(1_000).default(BC_DEFAULTS.maxGradNorm),
    })
    .prefault({}),
  /**
   * Beyond the paper: switches that measure something or try an idea, each off by default, each with its record
   * in docs/experiments.md. A run that sets none of them is the paper's method.
   */
  experimental: z
    .strictObject({
      /**
       * DreamGym-S2R's schedule. 0: the real budget is spent after the synthetic phase (the paper). n > 0: one real
       * iteration after every n synthetic ones while the budget lasts, what is left of it after the synthetic
       * phase. In the table as "S2R, a real iteration every 16th, learnt by the model".
       */
      realInterleave: z.number().int().min(0).max(10_000).default(0),
      /**
       * DreamGym-S2R: the run's real transitions join the replay buffer and the experience model's memory as they
       * are gathered, so that later synthetic rollouts are grounded in them (Dyna's model learning; the paper's
       * model learns from offline data alone). Useful with `realInterleave`, which gathers them during the
       * synthetic phase.
       */
      learnFromReal: z.boolean().default(false),
      /**
       * Pessimism where the experience model is unsure (experience/types.ts Pessimism): off, halt (MOReL, Kidambi
       * et al. 2020: end the episode below `threshold` confidence, reward −penalty) or penalty (MOPO, Yu et al.
       * 2020: reward − penalty × doubt). In the table as "DreamGym + pessimism".
       */
      pessimism: z
        .strictObject({
          mode: z.enum(["off", "halt", "penalty"]).default("off"),
          threshold: z.number().min(0).max(1).default(0.3),
          penalty: z.number().min(0).max(100).default(1),
        })
        .prefault({}),
      /**
       * A diagnostic, not a method (experience/types.ts Oracle): the real environment writes the next states (all,
       * or after actions matching `actions`) and/or the rewards and ends of episodes instead of the model, to
       * measure what the model's errors there cost the policy. Built-in domains only.
       */
      oracle: z
        .strictObject({
          states: z.enum(["none", "all", "matching"]).default("none"),
          actions: z.string().max(500).optional(),
          reward: z.boolean().default(false),
        })
        .prefault({}),
    })
    .prefault({}),
});
export type RunConfigInput = z.input<typeof RunConfigFields>;

export const RunConfig = z
  .preprocess(upgradeStoredConfig, RunConfigFields)
  .superRefine((config, ctx) => {
    if (config.evaluation.tasks === "validation" && config.seedTasks > VALIDATION_OFFSET)
      ctx.addIssue({
        code: "custom",
        path: ["seedTasks"],
        message: `a run evaluated on validation tasks (train tasks from ${VALIDATION_OFFSET} on) trains on at most ${VALIDATION_OFFSET} seed tasks, got ${config.seedTasks}`,
      });
    const oracle = oracleProblem(config.experimental.oracle);
    if (oracle) ctx.addIssue({ code: "custom", path: ["experimental", "oracle"], message: oracle });
    const generator = config.curriculum.generator;
    if (generator === "blind" && config.backends.taskGenerator === "openai")
      ctx.addIssue({
        code: "custom",
        path: ["curriculum", "generator"],
        message: `the openai task generator writes goals that the real domain's schema checks: it is grounded; set curriculum.generator to "grounded" or backends.taskGenerator to "embedded"`,
      });
    if (generator === "grounded" && !isCurriculumDomain(config.domain))
      ctx.addIssue({
        code: "custom",
        path: ["curriculum", "generator"],
        message: `the grounded task generator reads a built-in environment (${CURRICULUM_DOMAINS.join(", ")}), and "${config.domain}" is not one: use "blind"`,
      });
    if (config.evaluation.judge && (REAL_DOMAIN_NAMES as readonly string[]).includes(config.domain))
      ctx.addIssue({
        code: "custom",
        path: ["evaluation", "judge"],
        message: `the outcome judge is a proxy for imported domains; ${config.domain} is built in and evaluated by real success`,
      });
  })
  .transform((config) => ({
    ...config,
    curriculum: {
      ...config.curriculum,
      taskGeneration: taskGeneration(config),
      generator:
        config.curriculum.generator ??
        (config.backends.taskGenerator === "openai" ? ("grounded" as const) : ("blind" as const)),
    },
  }));
export type RunConfig = z.output<typeof RunConfig>;

/** Parses a config, naming every bad field. */
export function parseRunConfig(value: unknown, where = "config"): RunConfig {
  const parsed = RunConfig.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`Invalid run ${where}:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
