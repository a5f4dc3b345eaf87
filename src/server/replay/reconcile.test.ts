import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import type { LanceReplayBuffer } from "./lanceReplayBuffer";
import { openReplayBuffer } from "./openReplayBuffer";
import { reconcile } from "./reconcile";
import { indexPendingSteps } from "./syncSteps";
import { lanceIds, stepIds, tempLanceDir, writeHandSteps } from "./testing";

let t: TestDb;
let lance: ReturnType<typeof tempLanceDir>;
const open: LanceReplayBuffer[] = [];

beforeEach(async () => {
  t = await createTestDb();
  lance = tempLanceDir();
});

afterEach(async () => {
  for (const store of open.splice(0)) store.close();
  await t.cleanup();
  lance.cleanup();
});

async function store() {
  const s = await openReplayBuffer({ lancedbDir: lance.dir, embedder: new HashNgramEmbedder(), db: t.db });
  open.push(s);
  return s;
}

describe("reconcile", () => {
  it("removes rows of deleted steps and requeues steps whose row is missing", async () => {
    await writeHandSteps(t.db, 2);
    const s = await store();
    await indexPendingSteps(t.db, s);
    const gone = await t.db.trajectory.findFirstOrThrow({ include: { steps: true } });
    await t.db.trajectory.delete({ where: { id: gone.id } });
    const [lost] = await stepIds(t.db);
    await s.deleteIds([lost!]);

    expect(await reconcile(t.db, s)).toEqual({ removed: gone.steps.length, requeued: 1 });
    expect(await t.db.step.count({ where: { indexedAt: null } })).toBe(1);
    await indexPendingSteps(t.db, s);
    expect(await lanceIds(s)).toEqual(await stepIds(t.db));
    expect(await reconcile(t.db, s)).toEqual({ removed: 0, requeued: 0 });
  });
});
