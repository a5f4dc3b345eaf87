import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { config } from "@/env";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import type { Db } from "../db";
import { authFor } from "./auth";
import { addUser } from "./bootstrap";
import { markClientAddressesStamped } from "./clientAddress";
import { reserveAttempt, SIGN_IN_LIMITS, settleAttempt, throttleKeys } from "./signInThrottle";

const APP = "http://127.0.0.1:3000";
const PASSWORD = "right-password";

beforeAll(() => {
  // As under DreamGym's web server, which writes the connection's address into X-Forwarded-For (scripts/web.ts).
  markClientAddressesStamped();
});

/** Signs in through Better Auth's HTTP endpoint as the sign-in page does, from a client at `address`. */
async function signIn(db: Db, email: string, password: string, address = "198.51.100.1"): Promise<Response> {
  return authFor(db).handler(
    new Request(`${APP}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ email, password }),
    }),
  );
}

describeEachDatabase("sign-in throttling", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
    for (const who of ["rosa", "ana"])
      await addUser(t.db, config(), {
        email: `${who}@lab.org`,
        name: who,
        password: PASSWORD,
        role: "researcher",
      });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("locks an account after 10 wrong passwords, whichever addresses they come from, and says until when", async () => {
    // The probe's attack: every guess from another address (a forged X-Forwarded-For, before).
    for (let i = 1; i <= 10; i++)
      expect((await signIn(t.db, "rosa@lab.org", `guess-${i}`, `203.0.113.${i}`)).status).toBe(401);
    const locked = await signIn(t.db, "Rosa@Lab.org", PASSWORD, "203.0.113.99");
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toMatch(
      /^Too many failed sign-ins for this account\. Try again in 15 minutes \(after \d\d:\d\d UTC\)\.$/,
    );
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    // Another account, from the same addresses, is not affected.
    expect((await signIn(t.db, "ana@lab.org", PASSWORD, "203.0.113.1")).status).toBe(200);
    const row = await t.db.signInThrottle.findUniqueOrThrow({ where: { key: "account:rosa@lab.org" } });
    expect(row.failures).toBe(10);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it("locks an address after 50 wrong passwords spread over accounts, and only that address", async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.address.failures; i++)
      expect((await signIn(t.db, `someone-${i}@lab.org`, "guess", "192.0.2.7")).status).toBe(401);
    const refused = await signIn(t.db, "rosa@lab.org", PASSWORD, "192.0.2.7");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^Too many failed sign-ins from your address\. Try again in 15 minutes/,
    );
    expect((await signIn(t.db, "rosa@lab.org", PASSWORD, "192.0.2.8")).status).toBe(200);
    // The refused attempt was not counted against rosa.
    expect(await t.db.signInThrottle.findUnique({ where: { key: "account:rosa@lab.org" } })).toBeNull();
  });

  it("clears an account's count when its password is given, so a person who mistypes is never locked out", async () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < SIGN_IN_LIMITS.account.failures - 1; i++)
        expect((await signIn(t.db, "rosa@lab.org", "typo")).status).toBe(401);
      expect((await signIn(t.db, "rosa@lab.org", PASSWORD)).status).toBe(200);
    }
    // The address keeps its failures: a right password must not buy more guesses at other accounts.
    expect(
      (await t.db.signInThrottle.findUniqueOrThrow({ where: { key: "address:198.51.100.1" } })).failures,
    ).toBe(27);
  });

  it("counts guesses sent all at once before checking any: no more than 10 passwords are tried", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(t.db, "rosa@lab.org", `guess-${i}`, `203.0.113.${i + 1}`)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.account.failures);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });

  it("keeps the counts in the database: another process (or a restart) sees the lock", async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.account.failures; i++) await signIn(t.db, "rosa@lab.org", "guess");
    const otherProcess = await t.connectAgain();
    expect((await signIn(otherProcess, "rosa@lab.org", PASSWORD)).status).toBe(429);
  });

  it("lets the account try again once the lock has passed, with a fresh count", async () => {
    const keys = throttleKeys("rosa@lab.org", "2001:db8:0:1::5");
    expect(keys.map((k) => k.key)).toEqual(["account:rosa@lab.org", "address:2001:db8:0:1::/64"]);
    expect(throttleKeys(null, "2001::1:2:3:1.2.3.4").map((k) => k.key)).toEqual(["address:2001:0:0:1::/64"]);
    const start = new Date("2030-01-01T12:00:00Z");
    for (let i = 0; i < SIGN_IN_LIMITS.account.failures; i++) {
      expect(await reserveAttempt(t.db, keys, start)).toBeNull();
      await settleAttempt(t.db, keys, "wrong-password", start);
    }
    expect(await reserveAttempt(t.db, keys, new Date("2030-01-01T12:14:00Z"))).toEqual({
      scope: "account",
      until: new Date("2030-01-01T12:15:00Z"),
    });
    const later = new Date("2030-01-01T12:15:01Z");
    expect(await reserveAttempt(t.db, keys, later)).toBeNull();
    expect((await t.db.signInThrottle.findUniqueOrThrow({ where: { key: keys[0]!.key } })).failures).toBe(1);
  });
});
