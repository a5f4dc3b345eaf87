import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseUrl } from "@/env/database";
import { createDb } from "./db";
import { protectSqliteFiles, sqliteFilePath } from "./sqliteFiles";

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("the SQLite database's files", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-modes-"));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("reads the file a SQLite URL names", () => {
    expect(sqliteFilePath("file:/srv/dg/dreamgym.db")).toBe("/srv/dg/dreamgym.db");
    expect(sqliteFilePath("file:///srv/dg/dreamgym.db")).toBe("/srv/dg/dreamgym.db");
    expect(sqliteFilePath("file:data/dreamgym.db?mode=rwc")).toBe(path.resolve("data/dreamgym.db"));
  });

  it("makes a new data folder 0700 and a new database, its -wal and -shm 0600", async () => {
    const dataDir = path.join(root, "data");
    const url = databaseUrl({}, dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    const db = await createDb(url);
    try {
      await db.$executeRawUnsafe("CREATE TABLE t (x)");
      const file = sqliteFilePath(url);
      // WAL mode: the log and its index exist while the connection is open.
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, modeOf(f)]).toEqual([f, 0o600]);
    } finally {
      await db.$disconnect();
    }
  });

  it("tightens a database that others could read, and its companions, when it is opened", async () => {
    const file = path.join(root, "old", "dreamgym.db");
    fs.mkdirSync(path.dirname(file), { mode: 0o755 });
    const first = await createDb(`file:${file}`);
    await first.$executeRawUnsafe("CREATE TABLE t (x)");
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.chmodSync(f, 0o644);
    const again = await createDb(`file:${file}`);
    try {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, modeOf(f)]).toEqual([f, 0o600]);
      expect(await again.$queryRawUnsafe("SELECT count(*) AS n FROM t")).toEqual([{ n: 0 }]);
    } finally {
      await first.$disconnect();
      await again.$disconnect();
    }
  });

  it("creates a missing database owner-only before anything else can (npm start does this before migrating)", () => {
    const file = path.join(root, "fresh", "nested", "dreamgym.db");
    protectSqliteFiles(`file:${file}`);
    expect(fs.statSync(file).size).toBe(0);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
  });
});
