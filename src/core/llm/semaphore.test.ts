import { describe, expect, it } from "vitest";
import { LlmAbortedError } from "./errors";
import { Semaphore } from "./semaphore";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("Semaphore", () => {
  it("never grants more permits than its limit, and hands them on in order", async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    const releases = await Promise.all([s.acquire(), s.acquire()]);
    const third = s.acquire().then((release) => {
      order.push(3);
      return release;
    });
    const fourth = s.acquire().then((release) => {
      order.push(4);
      return release;
    });
    await tick();
    expect(s.inFlight).toBe(2);
    expect(s.waiting).toBe(2);
    releases[0]!();
    releases[0]!(); // a second release of the same permit is a no-op
    await tick();
    expect(order).toEqual([3]);
    releases[1]!();
    (await third)();
    (await fourth)();
    expect(order).toEqual([3, 4]);
    expect(s.inFlight).toBe(0);
    expect(s.maxInFlight).toBe(2);
  });

  it("lets an aborted waiter leave the queue", async () => {
    const s = new Semaphore(1);
    const release = await s.acquire();
    const controller = new AbortController();
    const waiting = s.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(LlmAbortedError);
    expect(s.waiting).toBe(0);
    release();
    expect(s.inFlight).toBe(0);
  });

  it("shares permits fairly between lanes: a burst of one role does not hold up another's requests", async () => {
    const s = new Semaphore(1);
    const served: string[] = [];
    const hold = await s.acquire(undefined, "generator");
    // The task generator queues a burst of 6 first; the experience model then asks twice.
    const requests = [...Array.from({ length: 6 }, () => "generator"), "experience", "experience"].map(
      (lane) =>
        s.acquire(undefined, lane).then((release) => {
          served.push(lane);
          release();
        }),
    );
    hold();
    await Promise.all(requests);
    // Round robin between lanes: the experience model's requests go second and fourth, not after the burst.
    expect(served).toEqual([
      "experience",
      "generator",
      "experience",
      "generator",
      "generator",
      "generator",
      "generator",
      "generator",
    ]);
    expect(s.laneStats().generator?.granted).toBe(7);
    expect(s.laneStats().experience?.granted).toBe(2);
  });

  it("measures the concurrency it achieved: mean permits held over the time any was held", () => {
    let now = 0;
    const s = new Semaphore(4, () => now);
    expect(s.achievedConcurrency).toBe(0);
    void s.acquire().then(() => {});
    // Grants are synchronous on the fast path; hold two for 10 ms, then one for 10 ms, then none for 100 ms.
    const releases: (() => void)[] = [];
    void s.acquire().then((r) => releases.push(r));
    return Promise.resolve().then(async () => {
      await Promise.resolve();
      now = 10;
      releases[0]!();
      now = 20;
      expect(s.achievedConcurrency).toBeCloseTo(1.5);
    });
  });
});
