/**
 * The math of a linear softmax over candidates (a conditional logit model): score_i = w . phi_i, and
 * pi(i) = softmax(score / T)_i. Its log-probability is concave in w, its gradient is the chosen candidate's
 * features minus their expectation under pi: everything RL and BC need, in closed form.
 */
import type { CandidateRows } from "./features";

/** Number of candidates in a row set. */
export function candidateCount(rows: CandidateRows): number {
  return rows.offsets.length - 1;
}

/** w . phi_i for every candidate. */
export function scores(weights: Float32Array, rows: CandidateRows): Float64Array {
  const n = candidateCount(rows);
  const out = new Float64Array(n);
  const { offsets, codes } = rows;
  for (let i = 0; i < n; i++) {
    let s = 0;
    const end = offsets[i + 1] as number;
    for (let k = offsets[i] as number; k < end; k++) {
      const c = codes[k] as number;
      s += c >= 0 ? (weights[c] as number) : -(weights[~c] as number);
    }
    out[i] = s;
  }
  return out;
}

/** log softmax(scores / temperature), computed stably (max subtracted). */
export function logSoftmax(raw: Float64Array, temperature: number): Float64Array {
  const n = raw.length;
  const out = new Float64Array(n);
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) max = Math.max(max, (raw[i] as number) / temperature);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.exp((raw[i] as number) / temperature - max);
  const lse = max + Math.log(sum);
  for (let i = 0; i < n; i++) out[i] = (raw[i] as number) / temperature - lse;
  return out;
}

/** Log-probabilities of every candidate under weights and temperature. */
export function candidateLogprobs(
  weights: Float32Array,
  rows: CandidateRows,
  temperature: number,
): Float64Array {
  return logSoftmax(scores(weights, rows), temperature);
}

/** Entropy -sum p log p of a distribution given by its log-probabilities. */
export function entropyOf(logprobs: Float64Array): number {
  let h = 0;
  for (const lp of logprobs) h -= Math.exp(lp) * lp;
  return h;
}

/**
 * Coefficients c_i = dL/dscore_i (the raw scores, before temperature) for a loss
 *   L = gLogprob * log pi(chosen) + gEntropy * H(pi),
 * given pi's log-probabilities. With z = score / T:
 *   dlog pi(c)/dz_i = 1[i=c] - p_i,   dH/dz_i = -p_i (log p_i + H),   and dz_i/dscore_i = 1/T.
 */
export function scoreCoefficients(
  logprobs: Float64Array,
  chosen: number,
  gLogprob: number,
  gEntropy: number,
  temperature: number,
): Float64Array {
  const n = logprobs.length;
  const out = new Float64Array(n);
  const h = gEntropy === 0 ? 0 : entropyOf(logprobs);
  for (let i = 0; i < n; i++) {
    const lp = logprobs[i] as number;
    const p = Math.exp(lp);
    let g = gLogprob * ((i === chosen ? 1 : 0) - p);
    if (gEntropy !== 0) g += gEntropy * -p * (lp + h);
    out[i] = g / temperature;
  }
  return out;
}

/** grad += sum_i coef_i * phi_i: the chain rule from scores back to the weights. */
export function addFeatureGradient(grad: Float64Array, rows: CandidateRows, coefs: Float64Array): void {
  const { offsets, codes } = rows;
  for (let i = 0; i < coefs.length; i++) {
    const c = coefs[i] as number;
    if (c === 0) continue;
    const end = offsets[i + 1] as number;
    for (let k = offsets[i] as number; k < end; k++) {
      const code = codes[k] as number;
      if (code >= 0) grad[code] = (grad[code] as number) + c;
      else grad[~code] = (grad[~code] as number) - c;
    }
  }
}

/** w . phi for one packed feature list (the value function's dot product). */
export function dot(weights: Float32Array, codes: Int32Array): number {
  let s = 0;
  for (const c of codes) s += c >= 0 ? (weights[c] as number) : -(weights[~c] as number);
  return s;
}

/** grad += coef * phi for one packed feature list. */
export function addScaled(grad: Float64Array, codes: Int32Array, coef: number): void {
  for (const c of codes) {
    if (c >= 0) grad[c] = (grad[c] as number) + coef;
    else grad[~c] = (grad[~c] as number) - coef;
  }
}
