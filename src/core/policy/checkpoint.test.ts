import { describe, expect, it } from "vitest";
import { shop } from "../envs/shop";
import { base64ToFloat32, encodeBytesInJs, float32ToBase64, uint32ToBase64 } from "../util/base64";
import { Rng } from "../util/random";
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

  it("writes only the weights a run touched while they are fewer than half, and loads them back exactly", () => {
    const { policy, value } = trained();
    policy.weights.fill(0);
    policy.weights[5] = 0.25;
    policy.weights[17] = -0;
    policy.weights[DIMENSION - 1] = -1.5e-7;
    const ck = saveCheckpoint(policy, value);
    expect(ck.weightIndex).toBeDefined();
    expect(base64ToFloat32(ck.weights)).toHaveLength(3);
    // The critic's weights are all non-zero: dense, as before, and older dense checkpoints load as they did.
    expect(ck.valueIndex).toBeUndefined();
    const loaded = loadCheckpoint(JSON.parse(JSON.stringify(ck)), shop.candidateActions);
    expect(Array.from(loaded.policy.weights)).toEqual(Array.from(policy.weights));
    expect(Object.is(loaded.policy.weights[17], -0)).toBe(true);
    expect(Array.from(loaded.value!.weights)).toEqual(Array.from(value.weights));

    // An untrained policy: nothing non-zero, and it loads as all zeros.
    policy.weights.fill(0);
    const empty = JSON.parse(JSON.stringify(saveCheckpoint(policy)));
    expect(empty.weightIndex).toBe("");
    expect(Array.from(loadCheckpoint(empty, shop.candidateActions).policy.weights)).toEqual(
      Array.from(new Float32Array(DIMENSION)),
    );

    const [a, b] = [
      uint32ToBase64(Uint32Array.from([5, 5, 9])),
      uint32ToBase64(Uint32Array.from([5, DIMENSION])),
    ];
    expect(() =>
      loadCheckpoint(
        { ...ck, weights: float32ToBase64(new Float32Array(3)), weightIndex: a },
        shop.candidateActions,
      ),
    ).toThrow(/policy index 1 is 5: indices must ascend/);
    expect(() =>
      loadCheckpoint(
        { ...ck, weights: float32ToBase64(new Float32Array(2)), weightIndex: b },
        shop.candidateActions,
      ),
    ).toThrow(/below the dimension 4096/);
    expect(() => loadCheckpoint({ ...ck, weightIndex: b }, shop.candidateActions)).toThrow(
      /3 weights for 2 indices/,
    );
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

  it("writes the same base64 in the browser (no Buffer) as with Node's native encoder", () => {
    const rng = new Rng(7);
    for (let n = 0; n <= 40; n++) {
      const bytes = Uint8Array.from({ length: n }, () => Math.floor(rng.next() * 256));
      // An offset view, as a typed array's bytes are when the array is a subarray.
      const view = new Uint8Array(new Uint8Array([9, ...bytes]).buffer, 1, n);
      expect(encodeBytesInJs(view)).toBe(Buffer.from(bytes).toString("base64"));
      expect(float32ToBase64(new Float32Array(view.slice(0, n - (n % 4)).buffer))).toBe(
        encodeBytesInJs(view.slice(0, n - (n % 4))),
      );
    }
  });
});
