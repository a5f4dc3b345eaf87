/**
 * The episode slots: never more than `concurrency` episodes of an environment open at once in the process,
 * measured on the server (WebSocket connections, AgentGym sessions between /create and /close), shared by every
 * RemoteEnvironment of that name, and every slot free again after episodes that ended, were abandoned, or failed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeEnvServer, startFakeEnv } from "./fakeEnvFixture";
import { openEpisodes, Slots } from "./limiter";
import { closeIdleSessions } from "./pool";
import { RemoteEnvironment } from "./remoteEnvironment";
import { fakeSpec, numberOf, playToEnd, task } from "./testing";

let fake: FakeEnvServer;
beforeAll(async () => {
  fake = await startFakeEnv();
});
afterAll(() => fake.stop());

describe.each(["openenv-ws", "agentgym"] as const)("%s", (protocol) => {
  it("opens at most `concurrency` episodes at once, across environments of the same name, through faults", async () => {
    const spec = fakeSpec(fake, protocol, { concurrency: 2, stepTimeoutMs: 400 });
    // Another registration object of the same name (the same environment, read again) shares the slots.
    const again = { ...spec };
    const wrongToken = { ...spec, token: "no" };
    fake.token = undefined;
    fake.delayMs = 15;
    const openBefore = fake.open;
    fake.seen.maxOpen = openBefore;
    let clientMax = 0;
    const watch = setInterval(() => {
      clientMax = Math.max(clientMax, openEpisodes(spec.name).open);
    }, 2);
    fake.faults.push({ on: "step", kind: "500" }, { on: "step", kind: "drop" }, { on: "reset", kind: "500" });
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, async (_, i) => {
          const env = new RemoteEnvironment(i % 2 ? spec : again, numberOf);
          // Abandoned after one step: rollouts stop at their step limit and close.
          if (i === 3) {
            await env.reset(task(i));
            await env.step("forward");
            return env.close();
          }
          await playToEnd(env, task(i));
        }),
      );
      expect(outcomes.every((o) => o.status === "fulfilled")).toBe(true);
      // A refused reset (wrong token) fails and gives its slot back.
      fake.token = "yes";
      await expect(new RemoteEnvironment(wrongToken, numberOf).reset(task(0))).rejects.toThrow(/401/);
    } finally {
      clearInterval(watch);
      fake.token = undefined;
      fake.delayMs = 0;
    }
    expect(fake.seen.maxOpen - openBefore).toBe(2);
    expect(clientMax).toBe(2);
    expect(openEpisodes(spec.name)).toEqual({ open: 0, waiting: 0 });
    await closeIdleSessions(spec.name);
  });
});

describe("slots", () => {
  it("serve waiters in order, give up after a deadline, and free once per release", async () => {
    const slots = new Slots(1);
    const first = await slots.acquire();
    const order: number[] = [];
    const inOrder = (n: number) =>
      slots.acquire().then((release) => {
        order.push(n);
        return release;
      });
    const second = inOrder(2);
    const third = inOrder(3);
    expect(await slots.acquireWithin(20)).toBeUndefined();
    first();
    first();
    (await second)();
    (await third)();
    expect(order).toEqual([2, 3]);
    expect(slots.inUse).toBe(0);
    slots.setLimit(2);
    const a = await slots.acquire();
    const b = await slots.acquireWithin(10);
    expect(b).toBeDefined();
    expect(slots.inUse).toBe(2);
    a();
    b?.();
    expect(slots.inUse).toBe(0);
  });
});
