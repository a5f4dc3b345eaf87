import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Config, loadConfig } from "@/env";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { createAuth } from "./auth";
import { DEMO_PASSWORD, DEMO_USERS, ensureDemoUsers, ensureFirstAdmin } from "./bootstrap";
import { signedInUser } from "./session";

describeEachDatabase("sign-in and people", (dialect) => {
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

  /** Signs in through Better Auth as a browser or trainer would; the session's headers, or the refusal's status. */
  async function signIn(email: string, password: string): Promise<Headers | number> {
    try {
      const { token } = await createAuth(t.db, settings).api.signInEmail({ body: { email, password } });
      return new Headers({ authorization: `Bearer ${token}` });
    } catch (error) {
      return (error as { statusCode?: number }).statusCode ?? 500;
    }
  }

  describe("the first admin and the demo people", () => {
    it("makes admin@dreamgym.local with a printed password once, and never again", async () => {
      const lines: string[] = [];
      const first = await ensureFirstAdmin(t.db, settings, (l) => lines.push(l));
      expect(first?.email).toBe("admin@dreamgym.local");
      expect(lines.join("\n")).toContain(first!.password!);
      const headers = await signIn("admin@dreamgym.local", first!.password!);
      expect(headers).toBeInstanceOf(Headers);
      expect(await signedInUser(headers as Headers)).toMatchObject({
        email: "admin@dreamgym.local",
        role: "admin",
      });
      expect(await ensureFirstAdmin(t.db, settings, (l) => lines.push(l))).toBeNull();
      expect(await t.db.user.count()).toBe(1);
    });

    it("takes the first admin from DREAMGYM_ADMIN_EMAIL / _PASSWORD without printing it", async () => {
      const own = loadConfig({
        DATABASE_URL: "file:unused.db",
        DREAMGYM_DATA_DIR: t.dir,
        DREAMGYM_ADMIN_EMAIL: "lead@lab.org",
        DREAMGYM_ADMIN_PASSWORD: "correct horse",
      });
      const lines: string[] = [];
      await ensureFirstAdmin(t.db, own, (l) => lines.push(l));
      expect(lines.join("\n")).not.toContain("correct horse");
      expect(await signIn("lead@lab.org", "correct horse")).toBeInstanceOf(Headers);
      expect(await signIn("lead@lab.org", "wrong horse")).toBe(401);
    });

    it("adds one demo person per working role, who sign in with the README's password", async () => {
      expect(await ensureDemoUsers(t.db, settings, () => {})).toBe(3);
      expect(await ensureDemoUsers(t.db, settings, () => {})).toBe(0);
      for (const demo of DEMO_USERS) {
        const headers = await signIn(demo.email, DEMO_PASSWORD);
        expect(await signedInUser(headers as Headers)).toMatchObject({ email: demo.email, role: demo.role });
      }
      const off = loadConfig({ DATABASE_URL: "file:unused.db", DREAMGYM_DEMO_USERS: "0" });
      expect(await ensureDemoUsers(t.db, off, () => {})).toBe(0);
    });
  });

  describe("an admin manages the people", () => {
    it("adds a person who can then sign in with the role given, changes the role, and resets the password", async () => {
      const admin = createCaller(signedIn(t.db, "admin"));
      const added = await admin.users.create({
        email: "Rosa@Lab.org",
        name: "Rosa",
        password: "first-password",
        role: "researcher",
      });
      expect(added).toMatchObject({ email: "rosa@lab.org", role: "researcher" });
      const headers = (await signIn("rosa@lab.org", "first-password")) as Headers;
      expect((await signedInUser(headers))?.role).toBe("researcher");

      await admin.users.setRole({ id: added.id, role: "viewer" });
      // The session is the same; the role is read afresh on every request.
      expect((await signedInUser(headers))?.role).toBe("viewer");

      await admin.users.setPassword({ id: added.id, password: "second-password" });
      expect(await signedInUser(headers)).toBeNull();
      expect(await signIn("rosa@lab.org", "first-password")).toBe(401);
      expect(await signIn("rosa@lab.org", "second-password")).toBeInstanceOf(Headers);
    });

    it("refuses a taken email, a short password and demoting the last admin, saying which", async () => {
      const admin = createCaller(signedIn(t.db, "admin"));
      const first = await ensureFirstAdmin(t.db, settings, () => {});
      const base = { name: "X", password: "long-enough", role: "viewer" as const };
      await admin.users.create({ ...base, email: "x@lab.org" });
      await expect(admin.users.create({ ...base, email: "x@lab.org" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: "email: x@lab.org already has an account",
      });
      await expect(
        admin.users.create({ ...base, email: "y@lab.org", password: "short" }),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("at least 8 characters"),
      });
      const only = (await admin.users.list()).find((u) => u.email === first!.email)!;
      await expect(admin.users.setRole({ id: only.id, role: "viewer" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("only admin"),
      });
      expect(await t.db.user.count()).toBe(2);
    });
  });
});
