import { afterEach, beforeEach, expect, it } from "vitest";
import { type Config, loadConfig } from "@/env";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { createContext } from "../api/trpc";
import { createAuth } from "./auth";
import { addUser } from "./bootstrap";
import { signedInUser } from "./session";

describeEachDatabase("deactivating people, and the admin audit log", (dialect) => {
  let t: TestDb;
  let settings: Config;
  const shared = globalThis as unknown as { dreamgymDb?: Promise<unknown> };
  beforeEach(async () => {
    t = await createTestDb(dialect);
    settings = loadConfig({ DATABASE_URL: "file:unused.db", DREAMGYM_DATA_DIR: t.dir });
    shared.dreamgymDb = Promise.resolve(t.db);
  });
  afterEach(async () => {
    delete shared.dreamgymDb;
    await t.cleanup();
  });

  /** A real sign-in: the bearer token a trainer would send, or the refusal's status and message. */
  async function signIn(
    email: string,
    password: string,
  ): Promise<Headers | { status: number; message: string }> {
    try {
      const { token } = await createAuth(t.db, settings).api.signInEmail({ body: { email, password } });
      return new Headers({ authorization: `Bearer ${token}` });
    } catch (error) {
      const e = error as { statusCode?: number; message: string };
      return { status: e.statusCode ?? 500, message: e.message };
    }
  }

  /** A tRPC caller exactly as the route builds it from a request's headers. */
  async function callerFor(headers: Headers) {
    return createCaller(await createContext({ req: new Request("http://app.test/api/trpc", { headers }) }));
  }

  async function adminOf(email = "boss@lab.org") {
    const { id } = await addUser(t.db, settings, {
      email,
      name: "Boss",
      password: "boss-password",
      role: "admin",
    });
    return { id, caller: await callerFor((await signIn(email, "boss-password")) as Headers) };
  }

  it("ends a deactivated person's sessions and tokens at once, refuses their sign-in, and lets them back", async () => {
    const admin = await adminOf();
    const rosa = await admin.caller.users.create({
      email: "rosa@lab.org",
      name: "Rosa",
      password: "rosa-password",
      role: "researcher",
    });
    const browser = (await signIn("rosa@lab.org", "rosa-password")) as Headers;
    const trainer = (await signIn("rosa@lab.org", "rosa-password")) as Headers;
    expect((await signedInUser(trainer))?.email).toBe("rosa@lab.org");
    expect((await (await callerFor(browser)).users.me())?.role).toBe("researcher");

    const row = await admin.caller.users.deactivate({ id: rosa.id, reason: "left the lab" });
    expect(row).toMatchObject({ deactivated: true, deactivatedReason: "left the lab" });
    // Both sessions are gone: the next request is anonymous, and anything but reading is refused.
    expect(await signedInUser(browser)).toBeNull();
    expect(await signedInUser(trainer)).toBeNull();
    expect(await (await callerFor(trainer)).users.me()).toBeNull();
    await expect((await callerFor(browser)).runs.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await signIn("rosa@lab.org", "rosa-password")).toMatchObject({
      status: 403,
      message: expect.stringContaining("deactivated"),
    });
    expect((await admin.caller.users.list()).find((u) => u.id === rosa.id)?.deactivated).toBe(true);

    await admin.caller.users.reactivate({ id: rosa.id });
    // An old token stays ended; a new sign-in works, with the role they had.
    expect(await signedInUser(trainer)).toBeNull();
    const again = (await signIn("rosa@lab.org", "rosa-password")) as Headers;
    expect(await signedInUser(again)).toMatchObject({ email: "rosa@lab.org", role: "researcher" });

    const log = await admin.caller.users.auditLog();
    expect(log.map((l) => l.action)).toEqual(["user.reactivate", "user.deactivate", "user.create"]);
    expect(log.every((l) => l.actor === admin.id && l.actorEmail === "boss@lab.org")).toBe(true);
    expect(log[1]).toMatchObject({
      target: rosa.id,
      targetEmail: "rosa@lab.org",
      detail: { reason: "left the lab" },
    });
  });

  it("logs role changes and password resets with what changed, and not a role set to what it was", async () => {
    const admin = await adminOf();
    const pat = await admin.caller.users.create({
      email: "pat@lab.org",
      name: "Pat",
      password: "pat-password",
      role: "viewer",
    });
    await admin.caller.users.setRole({ id: pat.id, role: "annotator" });
    await admin.caller.users.setRole({ id: pat.id, role: "annotator" });
    await admin.caller.users.setPassword({ id: pat.id, password: "new-password" });
    const log = await admin.caller.users.auditLog();
    expect(log.map((l) => l.action)).toEqual(["user.password", "user.role", "user.create"]);
    expect(log[1]?.detail).toEqual({ email: "pat@lab.org", from: "viewer", to: "annotator" });
  });

  it("refuses deactivating oneself and the last active admin, and refuses non-admins the actions and the log", async () => {
    const admin = await adminOf();
    await expect(admin.caller.users.deactivate({ id: admin.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("yourself"),
    });
    // Another admin may not deactivate the only other active admin either once that leaves none.
    const other = await admin.caller.users.create({
      email: "second@lab.org",
      name: "Second",
      password: "second-password",
      role: "admin",
    });
    await admin.caller.users.deactivate({ id: other.id });
    const byCli = createCaller(signedIn(t.db, "admin", "cli@test.local"));
    await expect(byCli.users.deactivate({ id: admin.id })).rejects.toMatchObject({
      message: expect.stringContaining("only admin"),
    });
    await expect(byCli.users.setRole({ id: admin.id, role: "viewer" })).rejects.toMatchObject({
      message: expect.stringContaining("only admin"),
    });
    const researcher = createCaller(signedIn(t.db, "researcher"));
    await expect(researcher.users.deactivate({ id: other.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(researcher.users.reactivate({ id: other.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(researcher.users.auditLog()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await t.db.auditLog.count({ where: { actor: { not: admin.id } } })).toBe(0);
  });
});
