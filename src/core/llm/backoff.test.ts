import { describe, expect, it } from "vitest";
import { backoffDelay, retryAfterMs, sleep } from "./backoff";
import { LlmAbortedError } from "./errors";

const policy = { baseMs: 100, maxMs: 1_000, retryAfterCapMs: 5_000 };

describe("backoffDelay", () => {
  it("doubles per retry, with jitter between half and all of the step, capped", () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(1, policy);
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(200);
    }
  });
});

describe("retryAfterMs", () => {
  it("reads seconds, milliseconds and HTTP dates, and caps them", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2" }), 5_000)).toBe(2_000);
    expect(retryAfterMs(new Headers({ "retry-after": "120" }), 5_000)).toBe(5_000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }), 5_000)).toBe(250);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }), 5_000, now)).toBe(
      3_000,
    );
  });

  it("is undefined when there is nothing readable", () => {
    expect(retryAfterMs(undefined, 5_000)).toBeUndefined();
    expect(retryAfterMs(new Headers(), 5_000)).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), 5_000)).toBeUndefined();
  });
});

describe("sleep", () => {
  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(sleep(10_000, controller.signal)).rejects.toBeInstanceOf(LlmAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
