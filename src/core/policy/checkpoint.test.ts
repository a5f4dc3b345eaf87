import { describe, expect, it } from "vitest";
import { shop } from "../envs/shop";
import { Rng } from "../util/random";
import { base64ToFloat32, float32ToBase64 } from "./base64";
import { CheckpointMismatchError, loadCheckpoint, saveCheckpoint } from "./checkpoint";
import { FEATURE_SPACE_VERSION } from "./features";
import { LinearPolicy } from "./linearPolicy";
import { LinearValue } from "./value";

const DIMENSION = 2 ** 12;

function trained(): { policy: LinearPolicy; value: LinearValue } {
  const policy = new LinearPolicy({
    candidates: shop.candidateActions,
    dimension: DIMENSION,
    seed: 9,
    temperature: 0.8,
  });
  const value = new LinearValue(DIMENSION);
  const rng = new Rng(1);
  for (let i = 0; i < DIMENSION; i++) {
    policy.weights[i] = rng.normal();
    value.weights[i] = rng.normal() * 1e-3;
  }
  return { policy, value };
}

describe("checkpoints", () => {
  it("round-trip through JSON text with identical log-probabilities and values", async () => {
    const { policy, value } = trained();
    const text = JSON.stringify(saveCheckpoint(policy, value));
    const loaded = loadCheckpoint(JSON.parse(text), shop.candidateActions, { dimension: DIMENSION });
    expect(loaded.policy.temperature).toBe(0.8);
    expect(loaded.policy.seed).toBe(9);
    expect(loaded.policy.weights).toEqual(policy.weights);
    const task = shop.task("test", 1);
    const obs = await shop.createEnvironment().reset(task);
    const f = policy.featurize(task, [], obs);
    expect(Array.from(loaded.policy.logprobs(f.rows))).toEqual(Array.from(policy.logprobs(f.rows)));
    expect(loaded.value?.predict(f.state)).toBe(value.predict(f.state));
  });

  it("refuses a checkpoint from another feature space, with a clear message", () => {
    const ck = { ...saveCheckpoint(trained().policy), featureSpace: "dreamgym-policy-features-v0" };
    expect(() => loadCheckpoint(ck, shop.candidateActions)).toThrow(CheckpointMismatchError);
    expect(() => loadCheckpoint(ck, shop.candidateActions)).toThrow(
      /feature space "dreamgym-policy-features-v0"/,
    );
    expect(() => loadCheckpoint(ck, shop.candidateActions)).toThrow(FEATURE_SPACE_VERSION);
  });

  it("refuses a checkpoint of another dimension, or whose weights do not fit it", () => {
    const ck = saveCheckpoint(trained().policy);
    expect(() => loadCheckpoint(ck, shop.candidateActions, { dimension: 2 ** 18 })).toThrow(
      /dimension is 4096, expected 262144/,
    );
    expect(() => loadCheckpoint({ ...ck, dimension: 2 ** 13 }, shop.candidateActions)).toThrow(
      /4096 weights/,
    );
  });

  it("says which field is wrong when the JSON is not a checkpoint", () => {
    expect(() => loadCheckpoint({ kind: "dreamgym.linear-softmax-policy" }, shop.candidateActions)).toThrow(
      /featureSpace/,
    );
    expect(() => loadCheckpoint("nonsense", shop.candidateActions)).toThrow(/not a policy checkpoint/);
  });

  it("base64 codec is exact, including non-finite and negative-zero floats", () => {
    const values = Float32Array.from([0, -0, 1.5, -3.25e-8, Number.POSITIVE_INFINITY, Number.NaN, 7]);
    for (let n = 0; n <= values.length; n++) {
      const slice = values.slice(0, n);
      expect(Array.from(base64ToFloat32(float32ToBase64(slice))).map(String)).toEqual(
        Array.from(slice).map(String),
      );
    }
    expect(Object.is(base64ToFloat32(float32ToBase64(Float32Array.from([-0])))[0], -0)).toBe(true);
    expect(() => base64ToFloat32("abc")).toThrow(/multiple of 4/);
  });
});
