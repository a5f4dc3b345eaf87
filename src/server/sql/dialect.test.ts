import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { dialectOf, groupConcat, isPostgresUrl, placeholders, queryUnsafe } from "./dialect";

const sqlite = { _activeProvider: "sqlite" };
const postgres = { _activeProvider: "postgresql" };

describe("SQL dialects", () => {
  it("tells PostgreSQL URLs from SQLite files", () => {
    expect(isPostgresUrl("postgresql://u:p@db:5432/dg")).toBe(true);
    expect(isPostgresUrl("postgres://db/dg")).toBe(true);
    expect(isPostgresUrl("file:/srv/dg/dreamgym.db")).toBe(false);
    expect(isPostgresUrl("file:postgres.db")).toBe(false);
  });

  it("numbers ? placeholders for PostgreSQL, outside quoted strings and identifiers", () => {
    const sql = `SELECT "a?" FROM t WHERE x = ? AND y = '?' AND z IN (?, ?)`;
    expect(placeholders(sqlite, sql)).toBe(sql);
    expect(placeholders(postgres, sql)).toBe(`SELECT "a?" FROM t WHERE x = $1 AND y = '?' AND z IN ($2, $3)`);
  });
});

describeEachDatabase("SQL dialects on a database", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("knows a client's database, and a transaction's", async () => {
    expect(dialectOf(t.db)).toBe(dialect);
    expect(await t.db.$transaction(async (tx) => dialectOf(tx))).toBe(dialect);
  });

  it("runs ? placeholders and joins a group's values on either database", async () => {
    await t.db.setting.createMany({
      data: [
        { key: "a", value: 1 },
        { key: "b", value: 2 },
        { key: "c", value: 3 },
      ],
    });
    const rows = await queryUnsafe<{ key: string }[]>(
      t.db,
      `SELECT key FROM "Setting" WHERE key IN (?, ?) ORDER BY key`,
      "a",
      "c",
    );
    expect(rows.map((r) => r.key)).toEqual(["a", "c"]);
    const [joined] = await t.db.$queryRaw<{ keys: string }[]>`
      SELECT ${groupConcat(t.db, Prisma.sql`key`, ",")} AS keys FROM (SELECT key FROM "Setting" ORDER BY key) s`;
    expect(joined?.keys.split(",").sort()).toEqual(["a", "b", "c"]);
  });
});
