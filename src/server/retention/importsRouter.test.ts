import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { SAMPLE_FILE } from "../demo/sampleFile";
import { reconcile } from "../replay/reconcile";
import { forgetReplayBuffer, withReplayBuffer } from "../replay/sharedReplayBuffer";
import { indexPending } from "../replay/syncSteps";
import { lanceIds, stepIds } from "../replay/testing";
import { importTrajectoriesFile } from "../trajectories/importTrajectories";
import { importLine, writeImport } from "./testing";

/* The imports list and deletion through the trajectories router, on the app's own data folder (one test: the
 * app's config is read once per file). */
let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
  process.env.DREAMGYM_DATA_DIR = t.dir;
  process.env.LANCEDB_DIR = path.join(t.dir, "lancedb");
});
afterEach(async () => {
  await forgetReplayBuffer();
  await t.cleanup();
});

describe("imports in the trajectories router", () => {
  it("lists imports, previews and deletes one with its LanceDB rows, and says NOT_FOUND after", async () => {
    const caller = createCaller(signedIn(t.db));
    const sample = await importTrajectoriesFile(t.db, SAMPLE_FILE, "samples/web-navigation.jsonl");
    await writeImport(t.db, "mine.jsonl", [importLine("web:mine", "Open my page", 3)]);
    await indexPending(t.db);

    const imports = await caller.trajectories.imports();
    expect(imports.map((i) => [i.name, i.trajectories])).toEqual(
      expect.arrayContaining([
        ["samples/web-navigation.jsonl", sample.imported],
        ["mine.jsonl", 1],
      ]),
    );
    expect(
      await caller.trajectories.importDeletePreview({ name: "samples/web-navigation.jsonl" }),
    ).toMatchObject({
      trajectories: sample.imported,
      steps: sample.steps,
      refusal: null,
    });
    expect(await caller.trajectories.deleteImport({ name: "samples/web-navigation.jsonl" })).toMatchObject({
      trajectories: sample.imported,
      steps: sample.steps,
      lanceRowsRemoved: sample.steps,
      lanceError: null,
    });
    expect((await caller.trajectories.imports()).map((i) => i.name)).toEqual(["mine.jsonl"]);
    await withReplayBuffer(t.db, async (store) => {
      expect(await lanceIds(store)).toEqual(await stepIds(t.db));
      expect(await reconcile(t.db, store)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    });
    await expect(
      caller.trajectories.deleteImport({ name: "samples/web-navigation.jsonl" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No import named samples/web-navigation.jsonl",
    });
    await expect(caller.trajectories.deleteImport({ name: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
