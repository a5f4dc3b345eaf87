/**
 * Behaviour cloning (the BC/SFT baseline): maximise log pi(expert's choice) over demonstration decisions, i.e.
 * minimise the cross-entropy between the expert's one-hot choice and the policy's softmax over candidates.
 */

import type { Decision } from "../policy/decision";
import { addFeatureGradient, candidateLogprobs, scoreCoefficients } from "../policy/linear";
import type { LinearPolicy } from "../policy/linearPolicy";
import { Rng } from "../util/random";
import { Adam } from "./adam";
import { minibatchIndices } from "./minibatch";

export interface BcConfig {
  /** Adam step size. */
  learningRate: number;
  /** Passes over the demonstrations. */
  epochs: number;
  /** Decisions per Adam step. */
  batchSize: number;
  /** L2 penalty on the weights (per step, on the weights the batch touches); keeps rare features from overfitting. */
  l2: number;
  /** Global gradient-norm clip. */
  maxGradNorm: number;
  /** Seed of the minibatch shuffles. */
  seed: number;
}

export const BC_DEFAULTS: BcConfig = {
  learningRate: 0.02,
  epochs: 20,
  batchSize: 64,
  l2: 0,
  maxGradNorm: 10,
  seed: 0,
};

export interface BcStats {
  /** Mean cross-entropy per decision in the last epoch (before each step). */
  loss: number;
  /** Share of decisions whose expert choice was the policy's argmax, in the last epoch. */
  accuracy: number;
  epochs: number;
}

export class BehaviourCloning {
  readonly config: BcConfig;
  readonly optimizer: Adam;
  private readonly rng: Rng;

  constructor(
    readonly policy: LinearPolicy,
    config: Partial<BcConfig> = {},
  ) {
    this.config = { ...BC_DEFAULTS, ...config };
    this.optimizer = new Adam([policy.weights], {
      learningRate: this.config.learningRate,
      maxGradNorm: this.config.maxGradNorm,
    });
    this.rng = new Rng(`bc:${this.config.seed}`);
  }

  fit(decisions: readonly Decision[]): BcStats {
    const { config, policy } = this;
    let loss = 0;
    let correct = 0;
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      loss = 0;
      correct = 0;
      const minibatches = Math.ceil(decisions.length / config.batchSize);
      for (const mb of minibatchIndices(decisions.length, minibatches, this.rng)) {
        this.optimizer.zeroGrad();
        const grad = this.optimizer.grads[0] as Float64Array;
        for (const k of mb) {
          const d = decisions[k] as Decision;
          const logprobs = candidateLogprobs(policy.weights, d.rows, policy.temperature);
          loss -= logprobs[d.chosen] as number;
          if (argmaxIndex(logprobs) === d.chosen) correct++;
          // L = -log pi(chosen) / |batch|.
          addFeatureGradient(
            grad,
            d.rows,
            scoreCoefficients(logprobs, d.chosen, -1 / mb.length, 0, policy.temperature),
          );
          if (config.l2 > 0) addL2(grad, policy.weights, d, config.l2 / mb.length);
        }
        this.optimizer.step();
      }
    }
    const n = Math.max(1, decisions.length);
    return { loss: loss / n, accuracy: correct / n, epochs: config.epochs };
  }
}

function argmaxIndex(values: Float64Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  return best;
}

/** grad += l2 * w on the weights a decision's features touch (a sparse weight decay). */
function addL2(grad: Float64Array, weights: Float32Array, d: Decision, l2: number): void {
  for (const code of d.rows.codes) {
    const i = code >= 0 ? code : ~code;
    grad[i] = (grad[i] as number) + l2 * (weights[i] as number);
  }
}
