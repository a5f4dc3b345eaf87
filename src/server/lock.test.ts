import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../tests/helpers/testDb";
import { LockLost, withLock } from "./lock";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase("a lock between processes", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("lets one holder at a time work, the others waiting their turn", async () => {
    const other = await t.connectAgain();
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [t.db, other, t.db, other].map((db, i) =>
        withLock(db, "l", async () => {
          inside++;
          most = Math.max(most, inside);
          await pause(30);
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order.sort()).toEqual([0, 1, 2, 3]);
    expect(await t.db.lock.count()).toBe(0);
  });

  it("is taken over once a dead holder's lease has run out", async () => {
    await t.db.lock.create({ data: { name: "l", holder: "dead", until: new Date(Date.now() + 200) } });
    const started = Date.now();
    expect(await withLock(t.db, "l", async () => "mine")).toBe("mine");
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("tells a holder that lost its lease (paused past it while another took over) to stop", async () => {
    const result = withLock(
      t.db,
      "l",
      async (signal) => {
        // Someone else took it over (as after a pause longer than the lease).
        await t.db.lock.update({ where: { name: "l" }, data: { holder: "usurper" } });
        await pause(200);
        return signal.reason;
      },
      { leaseMs: 90 },
    );
    expect(await result).toBeInstanceOf(LockLost);
    expect((await t.db.lock.findUniqueOrThrow({ where: { name: "l" } })).holder).toBe("usurper");
  });
});
