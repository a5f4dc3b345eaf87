/**
 * Checkpoints as plain JSON: the feature-space version and dimension (a checkpoint from another feature space
 * would load without error and mean nothing, so it is refused), the sampling settings, and the weights as
 * base64 of little-endian float32 (exact, so logits are identical after a round trip).
 */
import { z } from "zod";
import { base64ToFloat32, float32ToBase64 } from "./base64";
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
  /** base64 of the policy's float32 weights. */
  weights: z.string(),
  /** base64 of the value function's float32 weights (PPO runs). */
  value: z.string().optional(),
});
export type PolicyCheckpoint = z.infer<typeof PolicyCheckpoint>;

export class CheckpointMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointMismatchError";
  }
}

export function saveCheckpoint(policy: LinearPolicy, value?: LinearValue): PolicyCheckpoint {
  return {
    kind: CHECKPOINT_KIND,
    featureSpace: FEATURE_SPACE_VERSION,
    dimension: policy.dimension,
    temperature: policy.temperature,
    seed: policy.seed,
    fallbackAction: policy.fallbackAction,
    weights: float32ToBase64(policy.weights),
    ...(value ? { value: float32ToBase64(value.weights) } : {}),
  };
}

function decodeWeights(text: string, dimension: number, what: string): Float32Array {
  const weights = base64ToFloat32(text);
  if (weights.length !== dimension)
    throw new CheckpointMismatchError(
      `checkpoint ${what} has ${weights.length} weights but its dimension says ${dimension}`,
    );
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
  policy.weights.set(decodeWeights(ck.weights, ck.dimension, "policy"));
  if (ck.value === undefined) return { policy };
  const value = new LinearValue(ck.dimension);
  value.weights.set(decodeWeights(ck.value, ck.dimension, "value"));
  return { policy, value };
}
