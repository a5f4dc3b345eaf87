import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-migrations-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** Tables, their columns and their indexes: what a migration must create for the schema to hold. */
async function shape(url: string) {
  const db = await createDb(url);
  try {
    const objects = await db.$queryRawUnsafe<{ type: string; name: string; tbl_name: string }[]>(
      "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations' ORDER BY type, name",
    );
    const columns: Record<string, Column[]> = {};
    for (const table of objects.filter((o) => o.type === "table")) {
      const info = await db.$queryRawUnsafe<Column[]>(`PRAGMA table_info("${table.name}")`);
      columns[table.name] = info.map(({ name, type, notnull, dflt_value, pk }) => ({
        name,
        type,
        notnull: Number(notnull),
        dflt_value,
        pk: Number(pk),
      }));
    }
    return { objects, columns };
  } finally {
    await db.$disconnect();
  }
}

describe("prisma migrations", () => {
  it("create exactly the database that the schema describes", async () => {
    const migrated = `file:${path.join(dir, "migrated.db")}`;
    const described = `file:${path.join(dir, "described.db")}`;
    await migrateDeploy(migrated);
    // The schema's own SQL, written by Prisma from the schema alone (`db push` does the same, but its CLI lingers
    // a minute after finishing on machines without network).
    const { stdout: sql } = await run(process.execPath, [
      "node_modules/prisma/build/index.js",
      "migrate",
      "diff",
      "--from-empty",
      "--to-schema-datamodel",
      "prisma/schema.prisma",
      "--script",
    ]);
    const fromSchema = createClient({ url: described });
    try {
      await fromSchema.executeMultiple(sql);
    } finally {
      fromSchema.close();
    }
    const [a, b] = await Promise.all([shape(migrated), shape(described)]);
    expect(Object.keys(a.columns).length).toBeGreaterThanOrEqual(10);
    expect(a.objects).toEqual(b.objects);
    expect(a.columns).toEqual(b.columns);
  });

  it("are idempotent: deploying twice changes nothing", async () => {
    const url = `file:${path.join(dir, "twice.db")}`;
    await migrateDeploy(url);
    const before = await shape(url);
    await migrateDeploy(url);
    expect(await shape(url)).toEqual(before);
  });
});
