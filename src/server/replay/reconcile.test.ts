import { describe, expect, it } from "vitest";
import { reconcile } from "./reconcile";
import { dbAndLanceFixture } from "./storeFixture";
import { indexPendingSteps } from "./syncSteps";
import { lanceIds, stepIds, writeHandSteps } from "./testing";

const f = dbAndLanceFixture();
const store = f.store;

describe("reconcile", () => {
  it("removes rows of deleted steps and requeues steps whose row is missing", async () => {
    await writeHandSteps(f.db, 2);
    const s = await store();
    await indexPendingSteps(f.db, s);
    const gone = await f.db.trajectory.findFirstOrThrow({ include: { steps: true } });
    await f.db.trajectory.delete({ where: { id: gone.id } });
    const [lost] = await stepIds(f.db);
    await s.deleteIds([lost!]);

    expect(await reconcile(f.db, s)).toEqual({ removed: gone.steps.length, requeued: 1 });
    expect(await f.db.step.count({ where: { indexedAt: null } })).toBe(1);
    await indexPendingSteps(f.db, s);
    expect(await lanceIds(s)).toEqual(await stepIds(f.db));
    expect(await reconcile(f.db, s)).toEqual({ removed: 0, requeued: 0 });
  });
});
