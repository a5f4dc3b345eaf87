import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createClient } from "@libsql/client";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/server/db";
import { migrateDeploy, POSTGRES_MIGRATIONS_DIR, postgresMigrations } from "@/server/migrate";
import { derivePostgresSchema, POSTGRES_SCHEMA, SQLITE_SCHEMA } from "../scripts/db/postgresSchema";
import { createPostgresTestDatabase, testDialects } from "./helpers/testDb";

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

/** The Prisma CLI's SQL for a schema alone (no database needed). */
async function schemaSql(schema: string): Promise<string> {
  const { stdout } = await run(process.execPath, [
    "node_modules/prisma/build/index.js",
    "migrate",
    "diff",
    "--from-empty",
    "--to-schema-datamodel",
    schema,
    "--script",
  ]);
  return stdout;
}

describe("prisma migrations (sqlite)", () => {
  it("create exactly the database that the schema describes", async () => {
    const migrated = `file:${path.join(dir, "migrated.db")}`;
    const described = `file:${path.join(dir, "described.db")}`;
    await migrateDeploy(migrated);
    // The schema's own SQL, written by Prisma from the schema alone (`db push` does the same, but its CLI lingers
    // a minute after finishing on machines without network).
    const sql = await schemaSql("prisma/schema.prisma");
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

/** Tables, columns, indexes and constraints of a PostgreSQL database's public schema, minus the runner's table. */
async function postgresShape(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, ordinal_position
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_dreamgym_migrations'
        ORDER BY table_name, column_name`,
    );
    const indexes = await client.query(
      `SELECT tablename, indexname, indexdef FROM pg_indexes
        WHERE schemaname = 'public' AND tablename <> '_dreamgym_migrations' ORDER BY indexname`,
    );
    const constraints = await client.query(
      `SELECT conrelid::regclass::text AS "table", conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_dreamgym_migrations'
        ORDER BY conname`,
    );
    // Column order is where SQLite and PostgreSQL may differ (PostgreSQL appends added columns); it is not compared.
    return {
      columns: columns.rows.map(({ ordinal_position: _, ...c }) => c),
      indexes: indexes.rows,
      constraints: constraints.rows,
    };
  } finally {
    await client.end();
  }
}

describe("PostgreSQL's schema and migrations", () => {
  it("are in step with prisma/schema.prisma (else run `npm run db:postgres`)", () => {
    const derived = derivePostgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
    const committed = fs.readFileSync(POSTGRES_SCHEMA, "utf8");
    expect(committed, "prisma/postgresql/schema.prisma is out of step: run `npm run db:postgres`").toBe(
      derived,
    );
    expect(postgresMigrations(POSTGRES_MIGRATIONS_DIR).length).toBeGreaterThanOrEqual(1);
  });

  const onServer = testDialects().includes("postgresql");

  if (onServer)
    it("create exactly the database that the schema describes", async () => {
      const migrated = await createPostgresTestDatabase({ empty: true });
      const described = await createPostgresTestDatabase({ empty: true });
      try {
        await migrateDeploy(migrated.url);
        const client = new pg.Client({ connectionString: described.url });
        await client.connect();
        try {
          await client.query(await schemaSql(POSTGRES_SCHEMA));
        } finally {
          await client.end();
        }
        const [a, b] = await Promise.all([postgresShape(migrated.url), postgresShape(described.url)]);
        expect(new Set(a.columns.map((c) => c.table_name)).size).toBeGreaterThanOrEqual(10);
        expect(a).toEqual(b);
      } finally {
        await Promise.all([migrated.drop(), described.drop()]);
      }
    });

  if (onServer)
    it("are applied once however many processes deploy at once, and not again after", async () => {
      const database = await createPostgresTestDatabase({ empty: true });
      try {
        await Promise.all([1, 2, 3].map(() => migrateDeploy(database.url)));
        const before = await postgresShape(database.url);
        await migrateDeploy(database.url);
        expect(await postgresShape(database.url)).toEqual(before);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query(`SELECT name FROM "_dreamgym_migrations" ORDER BY name`);
          expect(rows.map((r) => r.name)).toEqual(postgresMigrations().map((m) => m.name));
        } finally {
          await client.end();
        }
      } finally {
        await database.drop();
      }
    });

  if (onServer)
    it("refuse a migration that was changed after it was applied", async () => {
      const database = await createPostgresTestDatabase({ empty: true });
      try {
        await migrateDeploy(database.url);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          await client.query(`UPDATE "_dreamgym_migrations" SET checksum = 'edited'`);
        } finally {
          await client.end();
        }
        await expect(migrateDeploy(database.url)).rejects.toThrow(/was changed after it was applied/);
      } finally {
        await database.drop();
      }
    });
});
