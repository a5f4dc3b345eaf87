import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Client, createClient } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteClient } from "./sqliteClient";

let dir: string;
let url: string;
const clients: Client[] = [];
/** A plain libsql client, as another process would have; `busyMs` is how long it waits for a lock. */
const plain = async (busyMs: number) => {
  const c = createClient({ url });
  clients.push(c);
  await c.execute(`PRAGMA busy_timeout = ${busyMs}`);
  return c;
};

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-sqlite-"));
  url = `file:${path.join(dir, "t.db")}`;
  const setup = await plain(0);
  await setup.execute("PRAGMA journal_mode = WAL");
  await setup.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
  await setup.execute("INSERT INTO t VALUES (1, 0)");
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const value = async (c: Client) => Number((await c.execute("SELECT v FROM t")).rows[0]?.v);

describe("a SQLite client that other connections share the file with", () => {
  it("does not keep the write lock after a statement of it found the database busy", async () => {
    const client = createSqliteClient({ url }, ["PRAGMA busy_timeout = 50"]);
    clients.push(client);
    const holder = await (await plain(0)).transaction("write");
    await expect(client.execute("UPDATE t SET v = v + 1")).rejects.toThrow("SQLITE_BUSY");
    await holder.rollback();

    // libsql leaves the failed statement in progress; on its connection this write would never commit.
    await client.execute("UPDATE t SET v = v + 10");
    const other = await plain(200);
    await other.execute("UPDATE t SET v = v + 100");
    expect(await value(other)).toBe(110);
    // The connection that replaced it has the client's settings.
    expect((await client.execute("PRAGMA busy_timeout")).rows[0]?.timeout).toBe(50);
  });

  it("rolls back a transaction whose COMMIT failed, instead of leaving it holding the write lock", async () => {
    const client = createSqliteClient({ url }, ["PRAGMA busy_timeout = 50"]);
    clients.push(client);
    const holder = await (await plain(0)).transaction("write");
    const tx = await client.transaction("deferred");
    await expect(tx.execute("UPDATE t SET v = v + 1")).rejects.toThrow("SQLITE_BUSY");
    await holder.rollback();
    await tx.execute("UPDATE t SET v = v + 10");
    await expect(tx.commit()).rejects.toThrow("SQL statements in progress");

    const other = await plain(200);
    await other.execute("UPDATE t SET v = v + 100");
    expect(await value(other)).toBe(100);
  });
});
