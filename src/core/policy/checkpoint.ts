/**
 * Checkpoints as plain JSON: the feature-space version and dimension (a checkpoint from another feature space
 * would load without error and mean nothing, so it is refused), the sampling settings, and the weights as
 * base64 of little-endian float32 (exact, so logits are identical after a round trip). A hashed feature space
 * has 2^18 weights of which a run has touched a fraction, so while fewer than half are non-zero only those are
 * written, with their indices: a run saves a checkpoint every iteration.
 */
import { z } from "zod";
import { base64ToFloat32, base64ToUint32, float32ToBase64, uint32ToBase64 } from "../util/base64";
import { FEATURE_SPACE_VERSION } from "./features";
import { type CandidateSource, LinearPolicy } from "./linearPolicy";
import { LinearValue } from "./value";

/** Written into every checkpoint; it keeps the policy's first name so that stored checkpoints stay readable. */
export const CHECKPOINT_KIND = "dreamgym.linear-softmax-policy";

export const PolicyCheckpoint = z.object({
  kind: z.literal(CHECKPOINT_KIND),
  featureSpace: z.string(),
  dimension: z.number().int().positive(),
  temperature: z.number().positive(),
  seed: z.number().int(),
  fallbackAction: z.string(),
  /** base64 of the policy's float32 weights: all of them, or those at `weightIndex` when it is given. */
  weights: z.string(),
  /** base64 of the ascending uint32 indices of the weights written (sparse); every other weight is 0. */
  weightIndex: z.string().optional(),
  /** base64 of the value function's float32 weights (PPO runs), dense or at `valueIndex`. */
  value: z.string().optional(),
  valueIndex: z.string().optional(),
});
export type PolicyCheckpoint = z.infer<typeof PolicyCheckpoint>;

export class CheckpointMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointMismatchError";
  }
}

export function saveCheckpoint(policy: LinearPolicy, value?: LinearValue): PolicyCheckpoint {
  const weights = encodeWeights(policy.weights);
  const critic = value ? encodeWeights(value.weights) : undefined;
  return {
    kind: CHECKPOINT_KIND,
    featureSpace: FEATURE_SPACE_VERSION,
    dimension: policy.dimension,
    temperature: policy.temperature,
    seed: policy.seed,
    fallbackAction: policy.fallbackAction,
    weights: weights.values,
    // An untrained policy's index is empty, which is still sparse: test for presence, not truthiness.
    ...(weights.index !== undefined ? { weightIndex: weights.index } : {}),
    ...(critic
      ? { value: critic.values, ...(critic.index !== undefined ? { valueIndex: critic.index } : {}) }
      : {}),
  };
}

/** Dense, or the non-zero weights and their indices when that is smaller. -0 counts as non-zero: exact. */
function encodeWeights(weights: Float32Array): { values: string; index?: string } {
  const bits = new Uint32Array(weights.buffer, weights.byteOffset, weights.length);
  let count = 0;
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) count++;
  if (2 * count >= weights.length) return { values: float32ToBase64(weights) };
  const index = new Uint32Array(count);
  const values = new Float32Array(count);
  for (let i = 0, j = 0; i < bits.length; i++) {
    if (bits[i] === 0) continue;
    index[j] = i;
    values[j++] = weights[i] as number;
  }
  return { values: float32ToBase64(values), index: uint32ToBase64(index) };
}

function decodeWeights(
  text: string,
  index: string | undefined,
  dimension: number,
  what: string,
): Float32Array {
  const values = base64ToFloat32(text);
  if (index === undefined) {
    if (values.length !== dimension)
      throw new CheckpointMismatchError(
        `checkpoint ${what} has ${values.length} weights but its dimension says ${dimension}`,
      );
    return values;
  }
  const at = base64ToUint32(index);
  if (at.length !== values.length)
    throw new CheckpointMismatchError(
      `checkpoint ${what} has ${values.length} weights for ${at.length} indices`,
    );
  const weights = new Float32Array(dimension);
  at.forEach((i, j) => {
    if (i >= dimension || (j > 0 && i <= (at[j - 1] as number)))
      throw new CheckpointMismatchError(
        `checkpoint ${what} index ${j} is ${i}: indices must ascend and stay below the dimension ${dimension}`,
      );
    weights[i] = values[j] as number;
  });
  return weights;
}

/**
 * A policy (and value function, when saved) from a checkpoint. Throws a CheckpointMismatchError when the
 * checkpoint was made in another feature space or for another dimension than `expect` asks for, and a zod error
 * naming the field when the JSON is not a checkpoint at all.
 */
export function loadCheckpoint(
  input: unknown,
  candidates: CandidateSource,
  expect: { dimension?: number } = {},
): { policy: LinearPolicy; value?: LinearValue } {
  const parsed = PolicyCheckpoint.safeParse(input);
  if (!parsed.success) {
    const why = parsed.error.issues.map(
      (i) => `${i.path.map(String).join(".") || "checkpoint"}: ${i.message}`,
    );
    throw new Error(`not a policy checkpoint (${why.join("; ")})`);
  }
  const ck = parsed.data;
  if (ck.featureSpace !== FEATURE_SPACE_VERSION)
    throw new CheckpointMismatchError(
      `checkpoint was made in feature space "${ck.featureSpace}", this code computes "${FEATURE_SPACE_VERSION}": ` +
        "its weights would mean other features; retrain or load it with the matching version",
    );
  if (expect.dimension !== undefined && ck.dimension !== expect.dimension)
    throw new CheckpointMismatchError(
      `checkpoint dimension is ${ck.dimension}, expected ${expect.dimension}`,
    );
  const policy = new LinearPolicy({
    candidates,
    dimension: ck.dimension,
    temperature: ck.temperature,
    seed: ck.seed,
    fallbackAction: ck.fallbackAction,
  });
  policy.weights.set(decodeWeights(ck.weights, ck.weightIndex, ck.dimension, "policy"));
  if (ck.value === undefined) return { policy };
  const value = new LinearValue(ck.dimension);
  value.weights.set(decodeWeights(ck.value, ck.valueIndex, ck.dimension, "value"));
  return { policy, value };
}
