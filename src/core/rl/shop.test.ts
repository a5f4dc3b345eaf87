/**
 * GRPO in the REAL shop environment, from an untrained (uniform) policy: 20 iterations of 8 train tasks x a group
 * of 8 episodes (~5 s). Measured on the first 30 test tasks: untrained 0% greedy / 10% sampled success, trained
 * 60% greedy. The threshold leaves room for changes to the shop or the features.
 */
import { describe, expect, it } from "vitest";
import { Grpo } from "./grpo";
import { shopPolicy, shopSuccess, trainOnShop } from "./testing";

const ITERATIONS = 20;

describe("GRPO in the real shop", () => {
  it("raises held-out success well above the untrained policy's", async () => {
    const policy = shopPolicy();
    const untrained = Math.max(await shopSuccess(policy, true), await shopSuccess(policy, false));
    await trainOnShop(new Grpo(policy, { seed: 0 }), ITERATIONS);
    const trained = await shopSuccess(policy, true);
    console.info(
      `shop GRPO: untrained ${untrained.toFixed(2)} -> trained ${trained.toFixed(2)} (greedy, 30 test tasks)`,
    );
    expect(trained).toBeGreaterThan(untrained + 0.15);
  }, 60_000);
});
