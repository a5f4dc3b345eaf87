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
});
