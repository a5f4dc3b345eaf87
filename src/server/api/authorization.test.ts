import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { appRouter, createCaller } from "./root";
import { signedIn } from "./testing";
import type { Context } from "./trpc";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

type Call = (input?: unknown) => Promise<unknown>;
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
).map(([path, procedure]) => ({ path, type: procedure._def.type }));

/** Calls a procedure by its path as `ctx` would, with an input that would not even parse. */
async function refusal(ctx: Context, path: string): Promise<string> {
  let node: unknown = createCaller(ctx);
  for (const key of path.split(".")) node = (node as Record<string, unknown>)[key];
  try {
    await (node as Call)({ nonsense: true });
    return "accepted";
  } catch (error) {
    return (error as { code?: string }).code ?? "unknown";
  }
}

describe("every procedure checks who asks, on the server", () => {
  it("refuses everything but 'who am I' to nobody signed in, before reading the input", async () => {
    expect(procedures.length).toBeGreaterThan(40);
    for (const { path } of procedures) {
      if (path === "users.me") continue;
      expect([path, await refusal({ db: t.db, user: null }, path)]).toEqual([path, "UNAUTHORIZED"]);
    }
    expect(await createCaller({ db: t.db, user: null }).users.me()).toBeNull();
  });

  it("lets a viewer change nothing: every mutation is forbidden", async () => {
    const mutations = procedures.filter((p) => p.type === "mutation");
    expect(mutations.map((m) => m.path)).toEqual(
      expect.arrayContaining([
        "runs.create",
        "runs.cancel",
        "steps.flag",
        "annotations.review",
        "users.create",
      ]),
    );
    for (const { path } of mutations)
      expect([path, await refusal(signedIn(t.db, "viewer"), path)]).toEqual([path, "FORBIDDEN"]);
  });

  it("keeps annotators off runs and data, and researchers off the annotation queue and the people", async () => {
    for (const path of ["runs.create", "runs.cancel", "jobs.importTrajectories", "steps.flag", "users.list"])
      expect([path, await refusal(signedIn(t.db, "annotator"), path)]).toEqual([path, "FORBIDDEN"]);
    for (const path of ["annotations.lock", "annotations.review", "users.create", "users.setRole"])
      expect([path, await refusal(signedIn(t.db, "researcher"), path)]).toEqual([path, "FORBIDDEN"]);
    // Allowed means it gets as far as reading the input, which is nonsense here.
    expect(await refusal(signedIn(t.db, "researcher"), "runs.create")).toBe("BAD_REQUEST");
    expect(await refusal(signedIn(t.db, "annotator"), "annotations.review")).toBe("BAD_REQUEST");
  });

  it("tells the UI who is signed in and what their role allows", async () => {
    const me = await createCaller(signedIn(t.db, "annotator", "ana@lab.org")).users.me();
    expect(me).toMatchObject({ email: "ana@lab.org", role: "annotator" });
    expect(me!.permissions).toEqual(["annotation:review", "annotation:export"]);
  });
});
