/**
 * The PPO critic: V(s) = u . psi(s), linear over the state features of features.ts (phase, step, what the page
 * or room says, how much the episode has looped). It lives in the policy's hashed space, so a Decision's `state`
 * codes are all it needs.
 */
import { isPowerOfTwo } from "./hashing";
import { dot } from "./linear";

export class LinearValue {
  readonly dimension: number;
  readonly weights: Float32Array;

  constructor(dimension: number) {
    if (!isPowerOfTwo(dimension)) throw new Error(`value dimension must be a power of two, got ${dimension}`);
    this.dimension = dimension;
    this.weights = new Float32Array(dimension);
  }

  predict(state: Int32Array): number {
    return dot(this.weights, state);
  }
}
