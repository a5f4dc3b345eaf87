/**
 * PPO (Schulman et al. 2017) as CleanRL's ppo.py: GAE(gamma, lambda) advantages from a learnt critic, normalised
 * per minibatch, the clipped surrogate, a (optionally clipped) value loss and an entropy bonus, all in one loss
 *
 *   L = L_pg - c_H * H(pi) + c_V * L_V,   L_V = 1/2 max((V - R)^2, (V_old + clip(V - V_old, -eps, eps) - R)^2)
 *
 * minimised by one Adam over the policy and value weights with a global gradient-norm clip.
 */

import type { Decision, DecisionEpisode } from "../policy/decision";
import {
  addFeatureGradient,
  addScaled,
  candidateLogprobs,
  entropyOf,
  scoreCoefficients,
} from "../policy/linear";
import type { LinearPolicy } from "../policy/linearPolicy";
import type { LinearValue } from "../policy/value";
import { Rng } from "../util/random";
import { Adam } from "./adam";
import { gae } from "./gae";
import { minibatchIndices } from "./minibatch";
import type { UpdateStats } from "./stats";
import { approxKlTerm, clippedSurrogate } from "./surrogate";

export interface PpoConfig {
  /** Clip range of the probability ratio, and of the value change when clipValueLoss. */
  clipEpsilon: number;
  /** Adam step size for policy and value weights. */
  learningRate: number;
  /** Passes over each batch. */
  epochs: number;
  /** Minibatches per epoch (one Adam step each). */
  minibatches: number;
  /** Discount. Outcome rewards come at the end; 0.99 makes a shorter success worth slightly more. */
  gamma: number;
  /** GAE's lambda: 1 is Monte Carlo returns, 0 one-step TD. */
  gaeLambda: number;
  /** Normalise advantages to mean 0, std 1 within each minibatch (CleanRL's norm_adv). */
  normalizeAdvantages: boolean;
  /** Clip the value update around the old value (CleanRL's clip_vloss). */
  clipValueLoss: boolean;
  /** Weight of the value loss in the total loss. */
  valueCoef: number;
  /** Weight of the entropy bonus. */
  entropyCoef: number;
  /** Global gradient-norm clip. */
  maxGradNorm: number;
  /** Seed of the minibatch shuffles. */
  seed: number;
}

export const PPO_DEFAULTS: PpoConfig = {
  clipEpsilon: 0.2,
  learningRate: 0.01,
  epochs: 4,
  minibatches: 4,
  gamma: 0.99,
  gaeLambda: 0.95,
  normalizeAdvantages: true,
  clipValueLoss: true,
  valueCoef: 0.5,
  entropyCoef: 0.01,
  maxGradNorm: 1.0,
  seed: 0,
};

export interface PpoStats extends UpdateStats {
  valueLoss: number;
  /** 1 - Var(R - V) / Var(R) of the old values: how much of the return the critic explained. */
  explainedVariance: number;
}

interface Sample {
  decision: Decision;
  oldValue: number;
  advantage: number;
  target: number;
}

/** Advantage normalisation's floor on the std, as CleanRL's 1e-8. */
const NORMALIZE_EPSILON = 1e-8;

export class Ppo {
  readonly config: PpoConfig;
  readonly optimizer: Adam;
  /** Minibatch shuffles; saved with the optimizer so a resumed run draws the same minibatches. */
  readonly rng: Rng;

  constructor(
    readonly policy: LinearPolicy,
    readonly value: LinearValue,
    config: Partial<PpoConfig> = {},
  ) {
    if (value.dimension !== policy.dimension)
      throw new Error(
        `PPO: value dimension ${value.dimension} differs from the policy's ${policy.dimension}`,
      );
    this.config = { ...PPO_DEFAULTS, ...config };
    this.optimizer = new Adam([policy.weights, value.weights], {
      learningRate: this.config.learningRate,
      maxGradNorm: this.config.maxGradNorm,
    });
    this.rng = new Rng(`ppo:${this.config.seed}`);
  }

  /** GAE advantages and value targets of one episode, from the values stored at collection (or computed now). */
  private samplesOf(episode: DecisionEpisode): Sample[] {
    const values = episode.decisions.map((d) => d.value ?? this.value.predict(d.state));
    // Every collected episode ends: the environment said done, or the rollout hit maxSteps (a failure).
    const dones = episode.decisions.map((_, t) => t === episode.decisions.length - 1);
    const { advantages, returns } = gae(
      episode.rewards,
      values,
      dones,
      this.config.gamma,
      this.config.gaeLambda,
      0,
    );
    return episode.decisions.map((decision, t) => ({
      decision,
      oldValue: values[t] as number,
      advantage: advantages[t] as number,
      target: returns[t] as number,
    }));
  }

  update(episodes: DecisionEpisode[]): PpoStats {
    const { config, policy, value } = this;
    const samples = episodes.flatMap((e) => this.samplesOf(e));
    const totals = {
      policyLoss: 0,
      valueLoss: 0,
      clipped: 0,
      approxKl: 0,
      entropy: 0,
      gradNorm: 0,
      steps: 0,
      seen: 0,
    };
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      for (const mb of minibatchIndices(samples.length, config.minibatches, this.rng)) {
        this.optimizer.zeroGrad();
        const [policyGrad, valueGrad] = this.optimizer.grads as [Float64Array, Float64Array];
        let mean = 0;
        let std = 1;
        if (config.normalizeAdvantages && mb.length > 1) {
          mean = mb.reduce((s, k) => s + (samples[k] as Sample).advantage, 0) / mb.length;
          const variance =
            mb.reduce((s, k) => s + ((samples[k] as Sample).advantage - mean) ** 2, 0) / (mb.length - 1);
          std = Math.sqrt(variance) + NORMALIZE_EPSILON;
        }
        const n = mb.length;
        let pgLoss = 0;
        let vLoss = 0;
        for (const k of mb) {
          const s = samples[k] as Sample;
          const d = s.decision;
          const advantage = (s.advantage - mean) / std;
          const logprobs = candidateLogprobs(policy.weights, d.rows, policy.temperature);
          const logprob = logprobs[d.chosen] as number;
          const pg = clippedSurrogate(logprob, d.logprob, advantage, config.clipEpsilon);
          const entropy = entropyOf(logprobs);
          pgLoss += pg.loss / n;
          const coefs = scoreCoefficients(
            logprobs,
            d.chosen,
            pg.dLogprob / n,
            -config.entropyCoef / n,
            policy.temperature,
          );
          addFeatureGradient(policyGrad, d.rows, coefs);
          this.optimizer.touch(0, d.rows.codes);

          // Value loss and its derivative with respect to the new value V.
          const v = value.predict(d.state);
          const unclippedError = v - s.target;
          let dV = unclippedError;
          let loss = 0.5 * unclippedError ** 2;
          if (config.clipValueLoss) {
            const delta = Math.min(Math.max(v - s.oldValue, -config.clipEpsilon), config.clipEpsilon);
            const clippedError = s.oldValue + delta - s.target;
            if (clippedError ** 2 > unclippedError ** 2) {
              loss = 0.5 * clippedError ** 2;
              // The clipped value moves with V only inside the clip range.
              dV = Math.abs(v - s.oldValue) < config.clipEpsilon ? clippedError : 0;
            }
          }
          vLoss += loss / n;
          addScaled(valueGrad, d.state, (config.valueCoef * dV) / n);
          this.optimizer.touch(1, d.state);

          totals.clipped += pg.clipped ? 1 : 0;
          totals.approxKl += approxKlTerm(logprob, d.logprob);
          totals.entropy += entropy;
          totals.seen += 1;
        }
        totals.gradNorm += this.optimizer.step();
        totals.policyLoss += pgLoss;
        totals.valueLoss += vLoss;
        totals.steps += 1;
      }
    }
    const seen = Math.max(1, totals.seen);
    const steps = Math.max(1, totals.steps);
    return {
      policyLoss: totals.policyLoss / steps,
      valueLoss: totals.valueLoss / steps,
      clipFraction: totals.clipped / seen,
      approxKl: totals.approxKl / seen,
      entropy: totals.entropy / seen,
      refKl: 0,
      gradNorm: totals.gradNorm / steps,
      decisions: samples.length,
      informative: samples.filter((s) => s.advantage !== 0).length,
      explainedVariance: explainedVariance(samples),
    };
  }
}

function explainedVariance(samples: readonly Sample[]): number {
  if (samples.length < 2) return 0;
  const variance = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length;
  };
  const targets = samples.map((s) => s.target);
  const vy = variance(targets);
  return vy === 0 ? 0 : 1 - variance(samples.map((s) => s.target - s.oldValue)) / vy;
}
