/**
 * GRPO (Shao et al. 2024, DeepSeekMath), for agents: a group of episodes per task, each episode's outcome reward
 * turned into a group-relative advantage, and that advantage applied to every decision of the episode. The loss
 * of one decision d of episode i is
 *
 *   L_d = -min(ratio_d * A_i, clip(ratio_d, 1 - eps, 1 + eps) * A_i) + beta * k3(pi_new || pi_ref) - c_H * H(pi_new)
 *
 * averaged as DeepSeekMath does, 1/G sum_i 1/|o_i| sum_t (each episode weighs the same however long it is), or
 * over all decisions (DAPO's token-level mean). Several epochs of minibatches reuse one batch; the clip keeps the
 * new policy near the one that collected it.
 */

import type { Decision, DecisionEpisode } from "../policy/decision";
import { addFeatureGradient, candidateLogprobs, entropyOf, scoreCoefficients } from "../policy/linear";
import type { LinearPolicy } from "../policy/linearPolicy";
import { Rng } from "../util/random";
import { Adam } from "./adam";
import { GRPO_ADVANTAGE_EPSILON, grpoAdvantages } from "./advantages";
import { minibatchIndices } from "./minibatch";
import type { UpdateStats } from "./stats";
import { approxKlTerm, clippedSurrogate, k3Kl } from "./surrogate";

export interface GrpoConfig {
  /** Clip range of the probability ratio (PPO's epsilon). */
  clipEpsilon: number;
  /** Adam step size; a linear model over binary features takes far larger steps than a neural network. */
  learningRate: number;
  /** Passes over each batch. */
  epochs: number;
  /** Minibatches per epoch (one Adam step each). */
  minibatches: number;
  /** Weight of the k3 KL penalty to the reference policy; DeepSeekMath used 0.04, 0 turns it off. */
  klBeta: number;
  /** Entropy bonus weight; GRPO has none by default, a little keeps exploration alive on small task sets. */
  entropyCoef: number;
  /** Global gradient-norm clip, as CleanRL's max_grad_norm. */
  maxGradNorm: number;
  /** Added to the group std in the advantage. */
  advantageEpsilon: number;
  /** "episode": each episode weighs 1 whatever its length (DeepSeekMath); "decision": each decision weighs 1. */
  aggregation: "episode" | "decision";
  /** Seed of the minibatch shuffles. */
  seed: number;
}

export const GRPO_DEFAULTS: GrpoConfig = {
  clipEpsilon: 0.2,
  learningRate: 0.01,
  epochs: 4,
  minibatches: 4,
  klBeta: 0,
  entropyCoef: 0,
  maxGradNorm: 1.0,
  advantageEpsilon: GRPO_ADVANTAGE_EPSILON,
  aggregation: "episode",
  seed: 0,
};

interface Sample {
  decision: Decision;
  advantage: number;
  weight: number;
  refLogprob: number;
}

export class Grpo {
  readonly config: GrpoConfig;
  readonly optimizer: Adam;
  /** Minibatch shuffles; saved with the optimizer so a resumed run draws the same minibatches. */
  readonly rng: Rng;

  /** `reference` is the frozen policy of the KL penalty (e.g. a clone of the starting policy); needed when klBeta > 0. */
  constructor(
    readonly policy: LinearPolicy,
    config: Partial<GrpoConfig> = {},
    readonly reference?: LinearPolicy,
  ) {
    this.config = { ...GRPO_DEFAULTS, ...config };
    if (this.config.klBeta > 0 && !reference) throw new Error("GRPO: klBeta > 0 needs a reference policy");
    this.optimizer = new Adam([policy.weights], {
      learningRate: this.config.learningRate,
      maxGradNorm: this.config.maxGradNorm,
    });
    this.rng = new Rng(`grpo:${this.config.seed}`);
  }

  /** One update from groups of episodes, one group per task (each episode's decisions carry their old logprobs). */
  update(groups: DecisionEpisode[][]): UpdateStats {
    const { config, policy } = this;
    const advantages = grpoAdvantages(
      groups.map((g) => g.map((e) => e.totalReward)),
      config.advantageEpsilon,
    );
    const samples: Sample[] = [];
    groups.forEach((group, g) => {
      group.forEach((episode, i) => {
        const advantage = advantages[g]?.[i] ?? 0;
        const weight = config.aggregation === "episode" ? 1 / Math.max(1, episode.decisions.length) : 1;
        for (const decision of episode.decisions) {
          const refLogprob = this.reference
            ? (candidateLogprobs(this.reference.weights, decision.rows, policy.temperature)[
                decision.chosen
              ] as number)
            : 0;
          samples.push({ decision, advantage, weight, refLogprob });
        }
      });
    });

    const totals = {
      policyLoss: 0,
      clipped: 0,
      approxKl: 0,
      entropy: 0,
      refKl: 0,
      gradNorm: 0,
      steps: 0,
      seen: 0,
    };
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      for (const mb of minibatchIndices(samples.length, config.minibatches, this.rng)) {
        this.optimizer.zeroGrad();
        const grad = this.optimizer.grads[0] as Float64Array;
        let weightSum = 0;
        for (const k of mb) weightSum += (samples[k] as Sample).weight;
        let mbLoss = 0;
        for (const k of mb) {
          const s = samples[k] as Sample;
          const d = s.decision;
          const logprobs = candidateLogprobs(policy.weights, d.rows, policy.temperature);
          const logprob = logprobs[d.chosen] as number;
          const w = s.weight / weightSum;
          const pg = clippedSurrogate(logprob, d.logprob, s.advantage, config.clipEpsilon);
          let dLogprob = pg.dLogprob;
          let loss = pg.loss;
          if (this.reference && config.klBeta > 0) {
            const kl = k3Kl(logprob, s.refLogprob);
            dLogprob += config.klBeta * kl.dLogprob;
            loss += config.klBeta * kl.kl;
            totals.refKl += kl.kl;
          }
          const entropy = entropyOf(logprobs);
          loss -= config.entropyCoef * entropy;
          mbLoss += w * loss;
          // Loss gradient: dL/dlog pi(chosen) from the objective, -c_H from the entropy bonus.
          const coefs = scoreCoefficients(
            logprobs,
            d.chosen,
            w * dLogprob,
            -w * config.entropyCoef,
            policy.temperature,
          );
          addFeatureGradient(grad, d.rows, coefs);
          this.optimizer.touch(0, d.rows.codes);
          totals.clipped += pg.clipped ? 1 : 0;
          totals.approxKl += approxKlTerm(logprob, d.logprob);
          totals.entropy += entropy;
          totals.seen += 1;
        }
        totals.gradNorm += this.optimizer.step();
        totals.policyLoss += mbLoss;
        totals.steps += 1;
      }
    }
    const seen = Math.max(1, totals.seen);
    const steps = Math.max(1, totals.steps);
    return {
      policyLoss: totals.policyLoss / steps,
      clipFraction: totals.clipped / seen,
      approxKl: totals.approxKl / seen,
      entropy: totals.entropy / seen,
      refKl: totals.refKl / seen,
      gradNorm: totals.gradNorm / steps,
      decisions: samples.length,
      informative: samples.filter((s) => s.advantage !== 0).length,
    };
  }
}
