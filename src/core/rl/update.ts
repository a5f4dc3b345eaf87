/**
 * The one RL update loop; GRPO (grpo.ts) and PPO (ppo.ts) are configurations of it, as in verl. One update takes
 * a batch of groups of episodes (each decision carrying its old log-probability), gives every decision an
 * advantage (an estimator of estimators.ts), then makes several epochs of minibatches over the decisions, each
 * one Adam step with a global gradient-norm clip on the loss
 *
 *   L = agg_d [ L_pg(ratio_d, A_d) + beta * k3(pi_new || pi_ref) - c_H * H(pi_new) ] + c_V * agg_d L_V(d)
 *
 * L_pg a policy loss of policyLosses.ts, agg an aggregation of aggregation.ts, the k3 penalty GRPO's (when a
 * reference policy is given), L_V the critic's part (critic.ts, when there is a critic). Several epochs reuse one
 * batch; the clip keeps the new policy near the one that collected it.
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
import { minibatchNormalisation } from "./advantages";
import { AGGREGATIONS, type AggregationName, type Weighed } from "./aggregation";
import { type Critic, explainedVariance, valueLoss } from "./critic";
import type { AdvantageEstimator } from "./estimators";
import { minibatchIndices } from "./minibatch";
import type { PolicyLoss, PolicyLossSettings } from "./policyLosses";
import type { CriticStats, UpdateStats } from "./stats";
import { approxKlTerm, k3Kl } from "./surrogate";

/** The optimisation's knobs, the same for every configuration. */
export interface UpdateSettings {
  /** Adam step size; a linear model over binary features takes far larger steps than a neural network. */
  learningRate: number;
  /** Passes over each batch. */
  epochs: number;
  /** Minibatches per epoch (one Adam step each). */
  minibatches: number;
  /** Global gradient-norm clip, as CleanRL's max_grad_norm. */
  maxGradNorm: number;
  /** Weight of the entropy bonus. */
  entropyCoef: number;
  /** Seed of the minibatch shuffles. */
  seed: number;
}

/** The knobs GRPO and PPO share. */
export interface ClippedUpdateConfig extends UpdateSettings, PolicyLossSettings {}

/** Where GRPO and PPO both start. */
export const CLIPPED_UPDATE_DEFAULTS: ClippedUpdateConfig = {
  policyLoss: "clip",
  clipEpsilon: 0.2,
  // DAPO's (Yu et al. 2025), beside their 0.2 below; read by clip-higher only.
  clipEpsilonHigh: 0.28,
  learningRate: 0.01,
  epochs: 4,
  minibatches: 4,
  maxGradNorm: 1.0,
  // None in GRPO; a little keeps exploration alive on small task sets.
  entropyCoef: 0,
  seed: 0,
};

/** What makes the loop one algorithm or another. */
export interface UpdateParts {
  /** Names the minibatch shuffles' stream with the seed ("grpo:0"), so a configuration keeps its own draws. */
  stream: string;
  estimator: AdvantageEstimator;
  /** Normalise advantages to mean 0, std 1 within each minibatch (CleanRL's norm_adv). */
  normalizeAdvantages: boolean;
  policyLoss: PolicyLoss;
  aggregation: AggregationName;
  /** GRPO's k3 KL penalty toward a frozen reference policy (e.g. a clone of the starting policy). */
  klPenalty?: { reference: LinearPolicy; beta: number };
  /** PPO's critic: optimised with the policy, on the value targets the estimator returns. */
  critic?: Critic;
}

interface Sample extends Weighed {
  decision: Decision;
  advantage: number;
  /** log pi_ref(chosen), with a KL penalty. */
  refLogprob: number;
  /** With a critic: its value at collection and the value target. */
  oldValue: number;
  target: number;
}

type Totals = Record<
  "policyLoss" | "valueLoss" | "clipped" | "approxKl" | "entropy" | "refKl" | "gradNorm" | "steps" | "seen",
  number
>;

export class RlUpdate {
  readonly optimizer: Adam;
  /** Minibatch shuffles; saved with the optimizer so a resumed run draws the same minibatches. */
  readonly rng: Rng;

  constructor(
    readonly policy: LinearPolicy,
    readonly settings: UpdateSettings,
    readonly parts: UpdateParts,
  ) {
    const critic = parts.critic?.value;
    if (critic && critic.dimension !== policy.dimension)
      throw new Error(`value dimension ${critic.dimension} differs from the policy's ${policy.dimension}`);
    this.optimizer = new Adam(critic ? [policy.weights, critic.weights] : [policy.weights], {
      learningRate: settings.learningRate,
      maxGradNorm: settings.maxGradNorm,
    });
    this.rng = new Rng(`${parts.stream}:${settings.seed}`);
  }

  /** The critic, whose value estimates rollouts record (PPO). */
  get value(): LinearValue | undefined {
    return this.parts.critic?.value;
  }

  /** One update from groups of episodes, one group per task (each episode's decisions carry their old logprobs). */
  update(groups: readonly (readonly DecisionEpisode[])[]): UpdateStats & Partial<CriticStats> {
    const samples = this.samplesOf(groups);
    const totals: Totals = {
      policyLoss: 0,
      valueLoss: 0,
      clipped: 0,
      approxKl: 0,
      entropy: 0,
      refKl: 0,
      gradNorm: 0,
      steps: 0,
      seen: 0,
    };
    for (let epoch = 0; epoch < this.settings.epochs; epoch++)
      for (const minibatch of minibatchIndices(samples.length, this.settings.minibatches, this.rng))
        this.step(minibatch, samples, totals);
    const seen = Math.max(1, totals.seen);
    const steps = Math.max(1, totals.steps);
    const critic = this.parts.critic !== undefined;
    // Key order is part of the stored JSON that golden.test.ts pins.
    return {
      policyLoss: totals.policyLoss / steps,
      ...(critic ? { valueLoss: totals.valueLoss / steps } : {}),
      clipFraction: totals.clipped / seen,
      approxKl: totals.approxKl / seen,
      entropy: totals.entropy / seen,
      refKl: totals.refKl / seen,
      gradNorm: totals.gradNorm / steps,
      decisions: samples.length,
      informative: samples.filter((s) => s.advantage !== 0).length,
      ...(critic ? { explainedVariance: explainedVariance(samples) } : {}),
    };
  }

  /** Every decision of the batch with its advantage, and what the KL penalty and the critic compare it with. */
  private samplesOf(groups: readonly (readonly DecisionEpisode[])[]): Sample[] {
    const { policy } = this;
    const { klPenalty, critic } = this.parts;
    const estimates = this.parts.estimator(groups);
    const samples: Sample[] = [];
    groups.forEach((group, g) => {
      group.forEach((episode, i) => {
        const estimate = estimates[g]?.[i];
        if (critic && !estimate?.returns)
          throw new Error("a critic needs value targets: pair it with an estimator that returns them (gae)");
        episode.decisions.forEach((decision, t) => {
          const refLogprob = klPenalty
            ? (candidateLogprobs(klPenalty.reference.weights, decision.rows, policy.temperature)[
                decision.chosen
              ] as number)
            : 0;
          samples.push({
            decision,
            advantage: estimate?.advantages[t] ?? 0,
            episodeLength: episode.decisions.length,
            refLogprob,
            oldValue: estimate?.values?.[t] ?? 0,
            target: estimate?.returns?.[t] ?? 0,
          });
        });
      });
    });
    return samples;
  }

  /** One Adam step on one minibatch. */
  private step(minibatch: readonly number[], samples: readonly Sample[], totals: Totals): void {
    const { policy, optimizer } = this;
    const { entropyCoef } = this.settings;
    const { klPenalty, critic } = this.parts;
    optimizer.zeroGrad();
    const [policyGrad, valueGrad] = optimizer.grads as [Float64Array, Float64Array | undefined];
    const weigh = AGGREGATIONS[this.parts.aggregation](minibatch, samples);
    const normalisation = this.parts.normalizeAdvantages
      ? minibatchNormalisation(minibatch.map((k) => (samples[k] as Sample).advantage))
      : undefined;
    let policyLoss = 0;
    let criticLoss = 0;
    for (const k of minibatch) {
      const s = samples[k] as Sample;
      const d = s.decision;
      const advantage = normalisation ? (s.advantage - normalisation.mean) / normalisation.std : s.advantage;
      const logprobs = candidateLogprobs(policy.weights, d.rows, policy.temperature);
      const logprob = logprobs[d.chosen] as number;
      const pg = this.parts.policyLoss(logprob, d.logprob, advantage);
      let { loss, dLogprob } = pg;
      if (klPenalty) {
        const kl = k3Kl(logprob, s.refLogprob);
        dLogprob += klPenalty.beta * kl.dLogprob;
        loss += klPenalty.beta * kl.kl;
        totals.refKl += kl.kl;
      }
      const entropy = entropyOf(logprobs);
      policyLoss += weigh(loss, k);
      // Loss gradient: dL/dlog pi(chosen) from the objective, -c_H from the entropy bonus.
      const coefs = scoreCoefficients(
        logprobs,
        d.chosen,
        weigh(dLogprob, k),
        weigh(-entropyCoef, k),
        policy.temperature,
      );
      addFeatureGradient(policyGrad, d.rows, coefs);
      optimizer.touch(0, d.rows.codes);
      if (critic && valueGrad) {
        const v = critic.value.predict(d.state);
        const term = valueLoss(v, s.oldValue, s.target, critic.clipRange);
        criticLoss += weigh(term.loss, k);
        addScaled(valueGrad, d.state, weigh(critic.valueCoef * term.dV, k));
        optimizer.touch(1, d.state);
      }
      totals.clipped += pg.clipped ? 1 : 0;
      totals.approxKl += approxKlTerm(logprob, d.logprob);
      totals.entropy += entropy;
      totals.seen += 1;
    }
    totals.gradNorm += optimizer.step();
    totals.policyLoss += policyLoss;
    totals.valueLoss += criticLoss;
    totals.steps += 1;
  }
}
