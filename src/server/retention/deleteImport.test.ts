import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/helpers/testDb";
import { reconcile } from "../replay/reconcile";
import { dbAndLanceFixture } from "../replay/storeFixture";
import { indexPendingSteps } from "../replay/syncSteps";
import { lanceIds, stepIds } from "../replay/testing";
import { deleteImport, listImports, previewImportDeletion } from "./deleteImport";
import { importLine, SEED_TASK, writeImport, writeRun } from "./testing";

describeEachDatabase("import deletion", (dialect) => {
  const f = dbAndLanceFixture(dialect);

  /** Two imports that share a task, each with one of its own, one naming a seed task; and a run on that task. */
  async function twoImports() {
    const run = await writeRun(f.db, "run");
    await writeImport(f.db, "a.jsonl", [
      importLine("web:shared", "Open the shared page", 2),
      importLine("web:only-a", "Open page A", 3),
      importLine("web:only-a", "Open page A again", 1),
      importLine(SEED_TASK, "put a clean mug in the cabinet", 2),
    ]);
    await writeImport(f.db, "b.jsonl", [
      importLine("web:shared", "Open the shared page the other way", 1),
      importLine("web:only-b", "Open page B", 2),
    ]);
    const aStep = await f.db.step.findFirstOrThrow({ where: { trajectory: { importName: "a.jsonl" } } });
    await f.db.annotation.create({
      data: {
        stepId: aStep.id,
        teacher: "t",
        teacherText: "why",
        events: { create: [{ author: "x", action: "accept" }] },
      },
    });
    return { run };
  }

  describe("deleteImport", () => {
    it("lists imports with their trajectories, steps, domains and when they came", async () => {
      await twoImports();
      const imports = await listImports(f.db);
      expect(imports.map((i) => i.name).sort()).toEqual(["a.jsonl", "b.jsonl"]);
      expect(imports.find((i) => i.name === "a.jsonl")).toMatchObject({
        trajectories: 4,
        steps: 8,
        domains: ["web"],
        firstImportedAt: expect.any(Date),
      });
      expect(imports.find((i) => i.name === "b.jsonl")).toMatchObject({ trajectories: 2, steps: 3 });
    });

    it("removes the import's trajectories, steps, annotations, its own tasks and rows, and keeps tasks others use", async () => {
      const { run } = await twoImports();
      const store = await f.store();
      await indexPendingSteps(f.db, store);
      const before = { runSteps: await f.db.step.count({ where: { trajectory: { runId: run.runId } } }) };

      expect(await previewImportDeletion(f.db, "a.jsonl")).toEqual({
        name: "a.jsonl",
        trajectories: 4,
        steps: 8,
        annotations: 1,
        tasks: 1, // web:only-a: web:shared is b's too, and the seed task is no import's to remove
        refusal: null,
      });
      const result = await deleteImport(f.db, "a.jsonl", store);
      expect(result).toEqual({
        name: "a.jsonl",
        trajectories: 4,
        steps: 8,
        annotations: 1,
        tasks: 1,
        lanceRowsRemoved: 8,
        lanceError: null,
      });

      expect(await f.db.trajectory.count({ where: { importName: "a.jsonl" } })).toBe(0);
      expect(await f.db.annotation.count()).toBe(1); // the run's
      expect(await f.db.annotationEvent.count()).toBe(1);
      expect(await f.db.task.findUnique({ where: { id: "web:only-a" } })).toBeNull();
      expect(await f.db.task.findUnique({ where: { id: "web:shared" } })).not.toBeNull();
      expect(await f.db.task.findUnique({ where: { id: SEED_TASK } })).not.toBeNull();
      expect(await f.db.trajectory.count({ where: { importName: "b.jsonl" } })).toBe(2);
      expect(await f.db.step.count({ where: { trajectory: { runId: run.runId } } })).toBe(before.runSteps);
      expect((await listImports(f.db)).map((i) => i.name)).toEqual(["b.jsonl"]);
      expect(await lanceIds(store)).toEqual(await stepIds(f.db));
      expect(await reconcile(f.db, store)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });

      // Deleting the other import too takes the shared task with it.
      expect(await deleteImport(f.db, "b.jsonl", store)).toMatchObject({ trajectories: 2, tasks: 2 });
      expect(await f.db.task.count({ where: { origin: "imported" } })).toBe(0);
      expect(await reconcile(f.db, store)).toEqual({ removed: 0, requeued: 0, duplicated: 0 });
    });

    it("a re-import after the deletion brings it back whole", async () => {
      await twoImports();
      const store = await f.store();
      await deleteImport(f.db, "b.jsonl", store);
      const again = await writeImport(f.db, "b.jsonl", [
        importLine("web:shared", "Open the shared page the other way", 1),
        importLine("web:only-b", "Open page B", 2),
      ]);
      expect(again).toMatchObject({ imported: 2, duplicates: 0, steps: 3 });
    });

    it("refuses while an import of the same name waits for the worker, and says when there is no such import", async () => {
      await twoImports();
      const store = await f.store();
      await f.db.job.create({ data: { type: "import", payload: { path: "/x.jsonl", name: "a.jsonl" } } });
      await expect(deleteImport(f.db, "a.jsonl", store)).rejects.toMatchObject({
        code: "CONFLICT",
        message: "an import of a.jsonl is queued: let it finish (or cancel it) first",
      });
      expect(await f.db.trajectory.count({ where: { importName: "a.jsonl" } })).toBe(4);
      await expect(deleteImport(f.db, "c.jsonl", store)).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "No import named c.jsonl",
      });
    });

    it("a crash between the database and LanceDB is repaired by reconcile", async () => {
      await twoImports();
      const store = await f.store();
      await indexPendingSteps(f.db, store);
      await expect(
        deleteImport(f.db, "b.jsonl", store, {
          afterCommit: () => {
            throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      expect(await f.db.trajectory.count({ where: { importName: "b.jsonl" } })).toBe(0);
      expect(await reconcile(f.db, store)).toEqual({ removed: 3, requeued: 0, duplicated: 0 });
      expect(await lanceIds(store)).toEqual(await stepIds(f.db));
    });
  });
});
