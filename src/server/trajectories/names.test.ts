import fs from "node:fs";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { workOnce } from "../../../tests/helpers/worker";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { authFor } from "../auth/auth";
import { sessionHeaders } from "../auth/testing";
import { SAMPLE_FILE } from "../demo/sampleFile";
import { CreateExternalRun } from "../envServer/protocol";
import { importTrajectoriesText } from "./importTrajectories";

let t: TestDb;

/** A NUL, a newline and a terminal escape: none of them may reach a stored name. */
const DIRTY = "shop\u0000\nlogs\u001b.jsonl";
const CLEAN = "shop logs.jsonl";

describeEachDatabase("names people give, as stored", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
    process.env.DREAMGYM_DATA_DIR = t.dir;
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("stores an uploaded import's name without its control characters, in the job and on every trajectory", async () => {
    const caller = createCaller(signedIn(t.db, "researcher"));
    const content = fs.readFileSync(SAMPLE_FILE, "utf8");
    const { jobId } = await caller.jobs.importTrajectories({ name: DIRTY, content });
    expect((await t.db.job.findUniqueOrThrow({ where: { id: jobId } })).payload).toMatchObject({
      name: CLEAN,
    });
    await workOnce(t.db);
    const names = await t.db.trajectory.groupBy({ by: ["importName"] });
    expect(names.map((n) => n.importName)).toEqual([CLEAN]);
    expect((await caller.trajectories.imports()).map((i) => i.name)).toEqual([CLEAN]);
    // Deleting by the name as typed again (control characters and all) finds it.
    expect((await caller.trajectories.importDeletePreview({ name: DIRTY })).name).toBe(CLEAN);
  });

  it("cleans an import name that did not come through the web (the CLI passes the file's path)", async () => {
    await importTrajectoriesText(t.db, fs.readFileSync(SAMPLE_FILE, "utf8"), "imports/a\nb\u0000.jsonl");
    const names = await t.db.trajectory.groupBy({ by: ["importName"] });
    expect(names.map((n) => n.importName)).toEqual(["imports/a b.jsonl"]);
  });

  it("cleans a person's name from the Users page and from Better Auth's own endpoints", async () => {
    const admin = createCaller(signedIn(t.db, "admin"));
    const person = await admin.users.create({
      email: "ana@lab.org",
      name: "Ana\u0000\nAnnotator",
      password: "ana-password",
      role: "annotator",
    });
    expect(person.name).toBe("Ana Annotator");
    await expect(
      admin.users.create({ email: "x@lab.org", name: "\n\u0000", password: "x-password", role: "viewer" }),
    ).rejects.toThrow(/a name is required/);
    // Anyone signed in may rename themselves through Better Auth (POST /api/auth/update-user).
    const headers = await sessionHeaders(t.db, "viewer");
    await authFor(t.db).api.updateUser({ headers, body: { name: "Pat\r\nViewer\u0007" } });
    expect((await t.db.user.findUniqueOrThrow({ where: { email: "viewer@test.local" } })).name).toBe(
      "Pat Viewer",
    );
  });

  it("cleans a run's name given by an external trainer", () => {
    expect(CreateExternalRun.parse({ name: "verl\u0000 run\n2" }).name).toBe("verl run 2");
  });
});
