/**
 * What the reproduction table runs: for each domain the untrained policy and behaviour cloning, and for GRPO and
 * PPO the real-env baseline (80K real transitions), DreamGym (0 real, the domain's synthetic budget: 80K, the
 * household's 240K) and DreamGym-S2R (5K real after the same synthetic phase); DreamGym's three ablations where
 * the paper reports them (WebShop, GRPO), at the same synthetic budget, and beside them DreamGym with pessimism where its model is unsure and S2R with its real
 * iterations interleaved and learnt by the experience model. Every row is a plain run config, the same the CLI and
 * the UI launch.
 */
import type { RealDomainName } from "@/core/envs/names";
import { RL_ALGORITHMS } from "@/core/train/methods";
import type { CollectOptions } from "@/server/collect/collectOffline";

export type Domain = RealDomainName;
export type Algorithm = "grpo" | "ppo";

export interface TableRow {
  /** Stable key of the row: method plus algorithm, e.g. "dreamgym/grpo". */
  key: string;
  label: string;
  algorithm: Algorithm | null;
  config: Record<string, unknown>;
}

export interface Scale {
  seeds: number[];
  /** Synthetic iterations of DreamGym and its ablations at most. */
  iterations: number;
  /**
   * The synthetic phase's budget per domain (0: iterations alone). Synthetic experience is what DreamGym makes cheap,
   * so it need not equal the real-env rows' real budget; each domain's is chosen on validation tasks.
   */
  syntheticBudget: Record<Domain, number>;
  tasksPerBatch: number;
  groupSize: number;
  evaluationEpisodes: number;
  /** The real-env baseline's budget (the paper's 80K) and the S2R budget (the paper's 5K). */
  realBudget: number;
  s2rBudget: number;
  /**
   * Expert episodes for behaviour cloning and the RL rows' warm start, per domain. The household's is small so that
   * cloning starts far below the ceiling (20 episodes: about 47% on 100 test tasks, 200: 89%), leaving RL room to
   * show a difference.
   */
  demonstrations: Record<Domain, number>;
  /** Offline data collected into the bench's own database before any run. */
  offline: (domain: Domain) => CollectOptions[];
}

const offline =
  (expert: number, noisy: number, random: number) =>
  (domain: Domain): CollectOptions[] => [
    { domain, policy: "expert", episodes: expert, split: "train", epsilon: 0, seed: 1, offset: 0 },
    { domain, policy: "noisy", episodes: noisy, split: "train", epsilon: 0.3, seed: 2, offset: expert },
    {
      domain,
      policy: "random",
      episodes: random,
      split: "train",
      epsilon: 1,
      seed: 3,
      offset: expert + noisy,
    },
  ];

export const SCALES: Record<"full" | "quick", Scale> = {
  // Five seeds, as few as can say what is noise (a 95% interval, stats.ts); 80K synthetic transitions in iterations
  // of 8 tasks x 8 rollouts. The whole matrix takes about three hours on two cores, so it is run in parts (--part).
  full: {
    seeds: [0, 1, 2, 3, 4],
    iterations: 100_000,
    // The shop and the office at the real-env rows' 80K (on the shop's validation tasks 160K read 60.0 against 60.3
    // for S2R: docs/shop-sim-to-real.md). The household at 240K: on validation tasks (seeds 0-5) its DreamGym GRPO
    // read 63.2 ± 8.2 at 80K, 70.8 ± 4.5 at 160K, 74.7 ± 3.4 at 240K and 74.0 ± 4.3 at 320K, where it levels off
    // (bench/results/validation-household-worlds.json, docs/experience-model.md "Worlds drawn whole").
    syntheticBudget: { shop: 80_000, household: 240_000, office: 80_000 },
    tasksPerBatch: 8,
    groupSize: 8,
    evaluationEpisodes: 100,
    realBudget: 80_000,
    s2rBudget: 5_000,
    demonstrations: { shop: 200, household: 20, office: 20 },
    offline: offline(300, 200, 100),
  },
  // A smoke check that every method still runs end to end, not a measurement.
  quick: {
    seeds: [0],
    iterations: 1,
    syntheticBudget: { shop: 0, household: 0, office: 0 },
    tasksPerBatch: 3,
    groupSize: 2,
    evaluationEpisodes: 4,
    realBudget: 300,
    s2rBudget: 100,
    demonstrations: { shop: 10, household: 10, office: 10 },
    offline: offline(30, 20, 10),
  },
};

/**
 * The household's 50-step tasks are out of reach of a blank linear policy (random play succeeds 0.5% of the
 * time), so every RL method there starts from the same behaviour-cloned policy; the paper's LLM policies start
 * with priors too. The shop's RL methods start blank, as the untrained row shows. The office's start from cloning
 * too: on validation tasks (seed 0, 80K real transitions) real-env GRPO reached 49% from a blank policy and 89% from
 * the cloned one (20 expert episodes).
 */
export const WARM_START: Record<Domain, "none" | "bc"> = { shop: "none", household: "bc", office: "bc" };

/**
 * The built-in shop treated as a domain without an environment (issue "RL where no environment exists"): its
 * offline logs, plus expert logs of the held-out test tasks for the proxies, exported and imported under this
 * name. The row trains through the imported-domain path only and is scored once in the real shop.
 */
export const IMPORTED_SHOP = "shop-imported";
/** Expert logs of the first test tasks: the imported copy's held-out tasks (never in its replay buffer). */
export const importedShopHeldOut = (scale: Scale): CollectOptions => ({
  domain: "shop",
  policy: "expert",
  episodes: scale.evaluationEpisodes,
  split: "test",
  epsilon: 0,
  seed: 4,
  offset: 0,
});

/** Where the table runs DreamGym's ablations (the paper's Table 3). */
const ABLATED: { domain: Domain; algorithm: Algorithm }[] = [{ domain: "shop", algorithm: "grpo" }];

export function tableRows(domain: Domain, scale: Scale, seed: number): TableRow[] {
  const base = {
    domain,
    seed,
    tasksPerBatch: scale.tasksPerBatch,
    groupSize: scale.groupSize,
    demonstrations: scale.demonstrations[domain],
    // The gap's synthetic half plays the same tasks as its real half: on half of them (the run default), each
    // seed's gap carried about eight points of sampling noise.
    evaluation: {
      interval: 1_000_000,
      episodes: scale.evaluationEpisodes,
      simulated: scale.evaluationEpisodes,
    },
  };
  const rl = { ...base, warmStart: WARM_START[domain] };
  const rows: TableRow[] = [
    {
      key: "untrained",
      label: "untrained policy",
      algorithm: null,
      config: { ...base, method: "untrained" },
    },
    {
      key: "bc",
      label: "behaviour cloning (offline demonstrations)",
      algorithm: null,
      config: { ...base, method: "bc" },
    },
  ];
  for (const algorithm of RL_ALGORITHMS) {
    const dreamgym = {
      ...rl,
      algorithm,
      method: "dreamgym",
      iterations: scale.iterations,
      syntheticTransitions: scale.syntheticBudget[domain],
    };
    rows.push(
      {
        key: `real/${algorithm}`,
        label: `${algorithm.toUpperCase()} in the real env`,
        algorithm,
        config: {
          ...rl,
          algorithm,
          method: "real",
          iterations: 100_000,
          realTransitions: scale.realBudget,
        },
      },
      {
        key: `dreamgym/${algorithm}`,
        label: `DreamGym (${algorithm.toUpperCase()})`,
        algorithm,
        config: dreamgym,
      },
      {
        key: `dreamgym-s2r/${algorithm}`,
        label: `DreamGym-S2R (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, method: "dreamgym-s2r", realTransitions: scale.s2rBudget },
      },
    );
    // The paper ablates on WebShop with GRPO only; at 80K synthetic transitions a row costs minutes, so do we.
    if (!ABLATED.some((a) => a.domain === domain && a.algorithm === algorithm)) continue;
    rows.push(
      {
        key: `imported-only/${algorithm}`,
        label: `DreamGym, imported-only shop (${algorithm.toUpperCase()}): its logs alone, scored once in the real shop`,
        algorithm,
        config: {
          ...dreamgym,
          domain: IMPORTED_SHOP,
          evaluation: { ...base.evaluation, groundTruth: domain },
        },
      },
      {
        key: `no-replay/${algorithm}`,
        label: `DreamGym w/o replay (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, experience: { k: 0 } },
      },
      {
        key: `no-reasoning/${algorithm}`,
        label: `DreamGym w/o reasoning (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, experience: { reasoning: false } },
      },
      {
        key: `no-task-generation/${algorithm}`,
        label: `DreamGym w/o task generation (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, curriculum: { taskGeneration: false } },
      },
      // DreamGym's generator is blind (seed instructions alone); this one reads the real shop's catalog and checks
      // each variation with its goal checker, which no generator of a domain without an environment could do.
      {
        key: `grounded-generator/${algorithm}`,
        label: `DreamGym, grounded task generation: reads the real environment (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, curriculum: { generator: "grounded" } },
      },
      // The paper enriches the replay buffer with the model's own transitions; off by default, since it lost on
      // validation tasks (docs/experiments.md "Buffer enrichment").
      {
        key: `enriched-buffer/${algorithm}`,
        label: `DreamGym, replay buffer enriched with its synthetic transitions (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, experience: { enrichBuffer: true } },
      },
      // Not the paper's: pessimism where the experience model is unsure (MOPO's reward penalty), off by default.
      {
        key: `pessimism/${algorithm}`,
        label: `DreamGym + pessimism, MOPO penalty 1 (${algorithm.toUpperCase()})`,
        algorithm,
        config: { ...dreamgym, experimental: { pessimism: { mode: "penalty", penalty: 1 } } },
      },
      // Not the paper's either: S2R's real iterations spread over the synthetic phase, the model learning each.
      {
        key: `s2r-grounded/${algorithm}`,
        label: `DreamGym-S2R, a real iteration every 16th, learnt by the model (${algorithm.toUpperCase()})`,
        algorithm,
        config: {
          ...dreamgym,
          method: "dreamgym-s2r",
          realTransitions: scale.s2rBudget,
          experimental: { realInterleave: 15, learnFromReal: true },
        },
      },
    );
  }
  return rows;
}

/** The paper's figures (Llama-3.1-8B, success %), where it reports one for the row. */
export const PAPER: Record<Domain, Record<string, number>> = {
  shop: {
    "real/grpo": 65.0,
    "dreamgym/grpo": 63.9,
    "dreamgym-s2r/grpo": 75.0,
    "no-replay/grpo": 59.2,
    "no-reasoning/grpo": 55.8,
    "no-task-generation/grpo": 57.3,
  },
  household: { "real/grpo": 70.9, "dreamgym/grpo": 66.3, "dreamgym-s2r/grpo": 75.9 },
  office: {},
};

export const PAPER_ENV: Record<Domain, string> = {
  shop: "WebShop",
  household: "ALFWorld",
  office: "tool use, not in the paper",
};
