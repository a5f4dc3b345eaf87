/**
 * Adam (Kingma & Ba 2015) over several flat parameter vectors, with global gradient-norm clipping first, as
 * CleanRL does (nn.utils.clip_grad_norm_ then optimizer.step()). Dense in effect: every weight's moments decay
 * every step, exactly as torch.optim.Adam, so results do not depend on which features a minibatch touched. A
 * weight whose gradient has always been 0 has zero moments and never moves, so the step visits only the weights
 * that ever had a gradient (a few thousand of a hashed feature space's 2^18) and gives the same numbers, bit for
 * bit, as the dense loop in a fraction of its time. A caller that says which weights its gradient touches
 * (`touch`) spares step() the scan of the whole vector for newly non-zero gradients too.
 */
import { z } from "zod";
import { base64ToFloat64, base64ToUint32, float64ToBase64, uint32ToBase64 } from "../util/base64";

/**
 * The optimizer's memory, saved with a run's checkpoint so a resumed run steps exactly as an uninterrupted one.
 * Sparse: a hashed feature space has 2^18 weights, but only the features rollouts have seen carry moments.
 */
export const AdamState = z.object({
  t: z.number().int().min(0),
  moments: z.array(
    z.object({
      length: z.number().int().min(0),
      /** base64 of the uint32 indices whose moments are non-zero, ascending. */
      index: z.string(),
      /** base64 of float64 first moments at those indices. */
      m: z.string(),
      /** base64 of float64 second moments at those indices. */
      v: z.string(),
    }),
  ),
});
export type AdamState = z.infer<typeof AdamState>;
export interface AdamConfig {
  /** Step size. */
  learningRate: number;
  /** Decay of the first-moment (mean gradient) estimate. */
  beta1?: number;
  /** Decay of the second-moment (squared gradient) estimate. */
  beta2?: number;
  /** Added to sqrt(v) so rarely-seen features do not get huge steps; CleanRL's PPO uses 1e-5. */
  epsilon?: number;
  /** Clip the global L2 norm of the gradient to this before the step; Infinity turns clipping off. */
  maxGradNorm?: number;
}

export class Adam {
  readonly params: Float32Array[];
  /** Gradients to fill before step(); zeroGrad() clears them. */
  readonly grads: Float64Array[];
  learningRate: number;
  private readonly m: Float64Array[];
  private readonly v: Float64Array[];
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly epsilon: number;
  private readonly maxGradNorm: number;
  /** Per parameter vector: the indices that ever had a non-zero gradient, ascending, and a flag per weight. */
  private readonly active: { indices: Uint32Array; count: number; flags: Uint8Array }[];
  /**
   * Per parameter vector, since the last zeroGrad: the weights `touch` flagged for the first time, or undefined
   * when nothing was touched (step() then scans every weight for new non-zero gradients).
   */
  private readonly touched: (number[] | undefined)[];
  private t = 0;

  constructor(params: Float32Array[], config: AdamConfig) {
    this.params = params;
    this.grads = params.map((p) => new Float64Array(p.length));
    this.m = params.map((p) => new Float64Array(p.length));
    this.v = params.map((p) => new Float64Array(p.length));
    this.learningRate = config.learningRate;
    this.beta1 = config.beta1 ?? 0.9;
    this.beta2 = config.beta2 ?? 0.999;
    this.epsilon = config.epsilon ?? 1e-5;
    this.maxGradNorm = config.maxGradNorm ?? Number.POSITIVE_INFINITY;
    this.active = params.map((p) => ({
      indices: new Uint32Array(64),
      count: 0,
      flags: new Uint8Array(p.length),
    }));
    this.touched = params.map(() => undefined);
  }

  /**
   * Says which weights of vector k the gradient being filled may make non-zero (every code of a packed feature
   * list, ~i standing for i). A caller that touches must touch every weight it writes before step(): step() then
   * looks only at those instead of scanning the whole vector. Activating a weight whose gradient stays 0 changes
   * nothing (its moments stay 0 and it does not move), so touching more than is written is harmless.
   */
  touch(k: number, codes: Int32Array, from = 0, to = codes.length): void {
    const { flags } = this.active[k]!;
    let fresh = this.touched[k];
    if (!fresh) {
      fresh = [];
      this.touched[k] = fresh;
    }
    for (let j = from; j < to; j++) {
      const code = codes[j]!;
      const i = code >= 0 ? code : ~code;
      if (flags[i] === 0) {
        flags[i] = 1;
        fresh.push(i);
      }
    }
  }

  /** Adds the weights whose gradient is non-zero for the first time, keeping the indices ascending. */
  private activate(k: number, from: Float64Array): void {
    const set = this.active[k]!;
    const fresh: number[] = [];
    for (let i = 0; i < from.length; i++) if (from[i] !== 0 && set.flags[i] === 0) fresh.push(i);
    for (const i of fresh) set.flags[i] = 1;
    this.merge(k, fresh);
  }

  /** Adds newly flagged indices to vector k's ascending list: merged from the back, in place when they fit. */
  private merge(k: number, fresh: number[]): void {
    if (fresh.length === 0) return;
    const set = this.active[k]!;
    const added = Uint32Array.from(fresh).sort();
    const count = set.count + added.length;
    const target = count <= set.indices.length ? set.indices : new Uint32Array(count * 2);
    const old = set.indices;
    let i = set.count - 1;
    let j = added.length - 1;
    for (let o = count - 1; j >= 0; o--) {
      if (i >= 0 && old[i]! > added[j]!) target[o] = old[i--]!;
      else target[o] = added[j--]!;
    }
    // In a new array the old indices below every added one still need copying; in place they are where they were.
    if (target !== old) target.set(old.subarray(0, i + 1));
    set.indices = target;
    set.count = count;
  }

  zeroGrad(): void {
    for (const g of this.grads) g.fill(0);
    this.touched.fill(undefined);
  }

  snapshot(): AdamState {
    return {
      t: this.t,
      moments: this.m.map((m, k) => {
        const v = this.v[k] as Float64Array;
        // Only active weights can have moments; their indices are ascending.
        const { indices, count: active } = this.active[k]!;
        let count = 0;
        for (let j = 0; j < active; j++) {
          const i = indices[j]!;
          if (m[i] !== 0 || v[i] !== 0) count++;
        }
        const index = new Uint32Array(count);
        const ms = new Float64Array(count);
        const vs = new Float64Array(count);
        for (let a = 0, j = 0; a < active; a++) {
          const i = indices[a]!;
          if (m[i] === 0 && v[i] === 0) continue;
          index[j] = i;
          ms[j] = m[i] as number;
          vs[j++] = v[i] as number;
        }
        return {
          length: m.length,
          index: uint32ToBase64(index),
          m: float64ToBase64(ms),
          v: float64ToBase64(vs),
        };
      }),
    };
  }

  /** Continues from a snapshot; refuses one taken over other parameter shapes, before changing anything. */
  restore(state: AdamState): void {
    if (state.moments.length !== this.m.length)
      throw new Error(
        `optimizer state has ${state.moments.length} parameter vectors, this optimizer has ${this.m.length}`,
      );
    const decoded = state.moments.map((saved, k) => {
      const length = (this.m[k] as Float64Array).length;
      if (saved.length !== length)
        throw new Error(`optimizer state vector ${k} has ${saved.length} weights, this one has ${length}`);
      const index = base64ToUint32(saved.index);
      const m = base64ToFloat64(saved.m);
      const v = base64ToFloat64(saved.v);
      if (m.length !== index.length || v.length !== index.length || index.some((i) => i >= length))
        throw new Error(`optimizer state vector ${k} is inconsistent (indices and moments disagree)`);
      return { index, m, v };
    });
    decoded.forEach(({ index, m, v }, k) => {
      const mk = (this.m[k] as Float64Array).fill(0);
      const vk = (this.v[k] as Float64Array).fill(0);
      index.forEach((i, j) => {
        mk[i] = m[j] as number;
        vk[i] = v[j] as number;
      });
      // The weights with moments are the ones that ever had a gradient (the rest never move).
      const set = this.active[k]!;
      set.flags.fill(0);
      set.count = 0;
      this.touched[k] = undefined;
      const nonZero = new Float64Array(mk.length);
      index.forEach((i) => {
        nonZero[i] = 1;
      });
      this.activate(k, nonZero);
    });
    this.t = state.t;
  }

  /** Clips, then takes one Adam step. Returns the gradient norm before clipping. */
  step(): number {
    // Plain loops, not forEach callbacks: a running sum captured by a callback lives in its context, where V8
    // boxes every double it writes (a third of the run's allocations came from here).
    const K = this.params.length;
    for (let k = 0; k < K; k++) {
      const fresh = this.touched[k];
      if (fresh) this.merge(k, fresh);
      else this.activate(k, this.grads[k]!);
      this.touched[k] = undefined;
    }
    // Summed over the active weights in index order: the same additions as over every weight (the rest add 0).
    let squares = 0;
    for (let k = 0; k < K; k++) {
      const g = this.grads[k]!;
      const { indices, count } = this.active[k]!;
      for (let j = 0; j < count; j++) {
        const x = g[indices[j]!]!;
        squares += x * x;
      }
    }
    const norm = Math.sqrt(squares);
    const scale = norm > this.maxGradNorm ? this.maxGradNorm / (norm + 1e-6) : 1;
    this.t += 1;
    const { beta1, beta2, epsilon } = this;
    // Bias corrections folded into the step size, as torch.optim.Adam does.
    const c1 = 1 - beta1 ** this.t;
    const c2 = 1 - beta2 ** this.t;
    const stepSize = this.learningRate / c1;
    const sqrtC2 = Math.sqrt(c2);
    for (let k = 0; k < K; k++) {
      const p = this.params[k]!;
      const g = this.grads[k]!;
      const m = this.m[k]!;
      const v = this.v[k]!;
      const { indices, count } = this.active[k]!;
      for (let j = 0; j < count; j++) {
        const i = indices[j]!;
        const gi = g[i]! * scale;
        const mi = beta1 * m[i]! + (1 - beta1) * gi;
        const vi = beta2 * v[i]! + (1 - beta2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        if (mi !== 0) p[i] = p[i]! - (stepSize * mi) / (Math.sqrt(vi) / sqrtC2 + epsilon);
      }
    }
    return norm;
  }
}
