import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../tests/helpers/testDb";
import { retryWhenBusy } from "./db";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

const busyTimeout = async (db: TestDb["db"]) =>
  Number((await db.$queryRawUnsafe<{ timeout: number }[]>("PRAGMA busy_timeout"))[0]?.timeout);

describe("database connections", () => {
  it("keep their busy timeout and foreign keys after an interactive transaction", async () => {
    await t.db.$transaction(async (tx) => tx.setting.create({ data: { key: "a", value: 1 } }));
    expect(await busyTimeout(t.db)).toBe(15000);
    const fk = await t.db.$queryRawUnsafe<{ foreign_keys: number }[]>("PRAGMA foreign_keys");
    expect(Number(fk[0]?.foreign_keys)).toBe(1);
  });

  it("a writer waits for another process's transaction instead of failing with SQLITE_BUSY", async () => {
    await t.db.$transaction(async (tx) => tx.setting.create({ data: { key: "warm", value: 0 } })); // rotate the connection
    // libsql is synchronous, so the lock holder must be another process, as the web and the worker are.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const { createClient } = require("@libsql/client");
         const c = createClient({ url: process.argv[1] });
         (async () => { const tx = await c.transaction("write"); await tx.execute("INSERT INTO Setting (key, value, updatedAt) VALUES ('lock', '1', '2026-01-01T00:00:00.000+00:00')");
           console.log("locked"); setTimeout(async () => { await tx.commit(); process.exit(0); }, 700); })();`,
        t.url,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    const started = Date.now();
    await t.db.setting.create({ data: { key: "waiter", value: 2 } });
    expect(Date.now() - started).toBeGreaterThan(300); // it really waited for the lock
    expect(await t.db.setting.count()).toBe(3);
  });

  it("retry a write that SQLite answered busy, and nothing else", async () => {
    /** A write that throws `errors` in turn, then succeeds; counts its calls. */
    const write = (...errors: string[]) => {
      const w = {
        calls: 0,
        run: async () => {
          const error = errors[w.calls++];
          if (error !== undefined) throw new Error(error);
          return "written";
        },
      };
      return w;
    };
    const busy = "Raw query failed. Code: `5`. Message: `SQLITE_BUSY: database is locked`";
    const busyTwice = write(busy, busy);
    expect(await retryWhenBusy(busyTwice.run, 4, 1)).toBe("written");
    expect(busyTwice.calls).toBe(3);

    // PostgreSQL's counterparts: a serialization failure and a deadlock roll the transaction back; run it again.
    const serialization = write(
      "Raw query failed. Code: `40001`. Message: `could not serialize access due to concurrent update`",
      "Raw query failed. Code: `40P01`. Message: `deadlock detected`",
    );
    expect(await retryWhenBusy(serialization.run, 4, 1)).toBe("written");
    expect(serialization.calls).toBe(3);

    const conflict = write("This trace changed while you reviewed it; reload it");
    await expect(retryWhenBusy(conflict.run, 4, 1)).rejects.toThrow("changed while you reviewed it");
    expect(conflict.calls).toBe(1);

    const locked = write(...Array.from({ length: 10 }, () => "SQLITE_BUSY: database is locked"));
    await expect(retryWhenBusy(locked.run, 3, 1)).rejects.toThrow("SQLITE_BUSY");
    expect(locked.calls).toBe(3);
  });
});
