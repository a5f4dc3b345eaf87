/**
 * LinearPolicy: the trainable policy of the embedded backend. It scores each candidate action of a state with a linear
 * model over hashed features (features.ts) and samples from softmax(score / temperature).
 *
 * Why a linear softmax over candidates (a conditional logit), and not a small neural network:
 * - The real domains give the candidates (admissible actions, search queries), so the policy's job is ranking,
 *   and ranking is what a conditional logit does. The hard part is knowing what matters (does this product's
 *   title cover the instruction, was this cabinet already opened), which the feature crosses spell out.
 * - log pi is concave in the weights and its gradient is exact and cheap (chosen features minus expected
 *   features), so GRPO, PPO and BC are a page of readable math each, with no autodiff library.
 * - It is fast: a decision touches ~20 candidates x ~60 features, so thousands of act() calls per second on one
 *   CPU core, which makes real-environment RL runs and tests take seconds.
 * - Hashing (2^18 weights by default) makes the vocabulary open: new products, objects or generated tasks need
 *   no vocabulary rebuild and no checkpoint migration.
 * What it cannot do: generalise to words it never saw in a useful cross, or remember beyond the history summary
 * in context.ts. It is a baseline, honest about being one (ARCHITECTURE.md "Backends").
 *
 * Sampling is deterministic: each decision draws from an Rng seeded by (policy seed, episode key, task id, step
 * index), so parallel episodes replay exactly however they interleave. Give each rollout of a group its own
 * episode key with episode(key).
 */

import { LRUCache } from "lru-cache";
import type { Observation, Policy, PolicyDecision, Step, Task } from "../types";
import { contentId, stepId } from "../util/contentIds";
import { hashString, Rng } from "../util/random";
import { buildContext } from "./context";
import type { Decision } from "./decision";
import { type CandidateRows, decisionFeatures } from "./features";
import { isPowerOfTwo } from "./hashing";
import { candidateLogprobs } from "./linear";

/** Where the candidates of a state come from, e.g. a RealDomain's candidateActions. */
export type CandidateSource = (task: Task, observation: Observation) => string[];

export interface LinearPolicyOptions {
  candidates: CandidateSource;
  /** Seed of the sampling streams (decisions are seeded per episode key, task and step from it). */
  seed?: number;
  /** Softmax temperature: 1 samples the model's own distribution, lower is greedier. Training uses the same T. */
  temperature?: number;
  /** Take the highest-scoring candidate instead of sampling (evaluation). */
  greedy?: boolean;
  /** Size of the hashed weight vector, a power of two: 2^18 keeps collisions rare among ~10^5 live features. */
  dimension?: number;
  /** What to do when a state lists no candidates (e.g. a synthetic state without an action list). */
  fallbackAction?: string;
}

export const DEFAULT_DIMENSION = 2 ** 18;
export const DEFAULT_TEMPERATURE = 1;
/** ALFWorld's no-op: harmless in the household, invalid (state unchanged) in the shop. */
export const DEFAULT_FALLBACK_ACTION = "look";

/** One act() with its record. */
export interface DecisionResult extends PolicyDecision {
  logprob: number;
  decision: Decision;
}

/** The policy as seen by one rollout: its own sampling stream and a log of the decisions it made. */
export interface EpisodeAgent extends Policy {
  readonly key: string;
  readonly decisions: Decision[];
}

export interface EpisodeOptions {
  /** Overrides the policy's greedy setting for this episode. */
  greedy?: boolean;
  /** Keep the decisions (default true); evaluation episodes can skip the memory. */
  record?: boolean;
}

/**
 * Decisions whose features are remembered at most (about 10 KB each). A group's rollouts start from the same
 * states and a settled policy repeats whole episodes: 46% of a DreamGym run's decisions (rollouts bench) have the same
 * task, history and state as an earlier one, and their features (not their probabilities) are a function of those.
 */
const FEATURES_MEMO = 4_096;

type Featurized = { actions: string[]; rows: CandidateRows; state: Int32Array };

export class LinearPolicy implements Policy {
  readonly dimension: number;
  readonly mask: number;
  readonly weights: Float32Array;
  readonly candidates: CandidateSource;
  seed: number;
  temperature: number;
  greedy: boolean;
  fallbackAction: string;
  /** FEATURES_MEMO; what it holds is never changed by its readers. */
  private readonly featurized = new LRUCache<string, Featurized>({ max: FEATURES_MEMO });

  constructor(options: LinearPolicyOptions) {
    const dimension = options.dimension ?? DEFAULT_DIMENSION;
    if (!isPowerOfTwo(dimension))
      throw new Error(`policy dimension must be a power of two, got ${dimension}`);
    const temperature = options.temperature ?? DEFAULT_TEMPERATURE;
    if (!(temperature > 0)) throw new Error(`policy temperature must be > 0, got ${temperature}`);
    this.dimension = dimension;
    this.mask = dimension - 1;
    this.weights = new Float32Array(dimension);
    this.candidates = options.candidates;
    this.seed = options.seed ?? 0;
    this.temperature = temperature;
    this.greedy = options.greedy ?? false;
    this.fallbackAction = options.fallbackAction ?? DEFAULT_FALLBACK_ACTION;
  }

  /** Policy contract: one decision, episode key "" (use episode(key) to tell rollouts of a group apart). */
  async act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision> {
    const { action, logprob } = this.decide(task, history, observation, "", this.greedy);
    return { action, logprob };
  }

  /** A view of the policy for one rollout: sampling seeded by `key`, decisions recorded in order. */
  episode(key: string, options: EpisodeOptions = {}): EpisodeAgent {
    const decisions: Decision[] = [];
    const greedy = options.greedy ?? this.greedy;
    const record = options.record ?? true;
    return {
      key,
      decisions,
      act: async (task, history, observation) => {
        const result = this.decide(task, history, observation, key, greedy);
        if (record) decisions.push(result.decision);
        return { action: result.action, logprob: result.logprob };
      },
    };
  }

  /** Features of a state's candidates; `extra` appends an action the candidate source did not list. */
  featurize(task: Task, history: readonly Step[], observation: Observation, extra?: string): Featurized {
    const key = `${contentId(task)} ${contentId(observation)} ${history.map(stepId).join(",")} ${extra === undefined ? "-" : `+${extra}`}`;
    const hit = this.featurized.get(key);
    if (hit) return hit;
    let actions = this.candidates(task, observation);
    if (actions.length === 0) actions = [this.fallbackAction];
    if (extra !== undefined && !actions.includes(extra)) actions = [...actions, extra];
    const ctx = buildContext(task, history, observation);
    const featurized = { actions, ...decisionFeatures(ctx, actions, this.mask) };
    this.featurized.set(key, featurized);
    return featurized;
  }

  /** Log-probabilities of a decision's candidates under the current weights. */
  logprobs(rows: CandidateRows): Float64Array {
    return candidateLogprobs(this.weights, rows, this.temperature);
  }

  /** The candidates of a state with their probabilities, best first (for inspection). */
  distribution(
    task: Task,
    history: readonly Step[],
    observation: Observation,
  ): { action: string; p: number }[] {
    const { actions, rows } = this.featurize(task, history, observation);
    const lp = this.logprobs(rows);
    return actions.map((action, i) => ({ action, p: Math.exp(lp[i] as number) })).sort((a, b) => b.p - a.p);
  }

  decide(
    task: Task,
    history: readonly Step[],
    observation: Observation,
    episodeKey: string,
    greedy: boolean,
  ): DecisionResult {
    const { actions, rows, state } = this.featurize(task, history, observation);
    const lp = this.logprobs(rows);
    const step = history.length;
    const chosen = greedy ? argmax(lp) : sample(lp, this.decisionRng(task, step, episodeKey));
    const logprob = lp[chosen] as number;
    const action = actions[chosen] as string;
    return { action, logprob, decision: { rows, actions, chosen, logprob, state, step } };
  }

  /** Same settings, copied weights: a frozen reference or "old" policy. */
  clone(): LinearPolicy {
    const copy = new LinearPolicy({
      candidates: this.candidates,
      seed: this.seed,
      temperature: this.temperature,
      greedy: this.greedy,
      dimension: this.dimension,
      fallbackAction: this.fallbackAction,
    });
    copy.weights.set(this.weights);
    return copy;
  }

  private decisionRng(task: Task, step: number, episodeKey: string): Rng {
    return new Rng(hashString(`${this.seed}|${episodeKey}|${task.id}|${step}`));
  }
}

/** First index of the largest value: ties go to the earlier candidate, so greedy play is deterministic. */
function argmax(values: Float64Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  return best;
}

/** Inverse-CDF sampling of one index from log-probabilities. */
function sample(logprobs: Float64Array, rng: Rng): number {
  const u = rng.next();
  let cumulative = 0;
  for (let i = 0; i < logprobs.length; i++) {
    cumulative += Math.exp(logprobs[i] as number);
    if (u < cumulative) return i;
  }
  return logprobs.length - 1;
}
