import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { redactDatabaseUrl } from "@/env/database";
import { isPostgresUrl } from "./sql/dialect";

const run = promisify(execFile);

/**
 * Tries before giving up. Deploying is idempotent, but several processes starting on one SQLite file at once (the
 * table bench's parallel CLI runs, a worker beside the web) can find it locked by another's deploy.
 */
const ATTEMPTS = 4;
const RETRY_MS = 1_500;

const root = path.resolve(import.meta.dirname, "../..");

/** PostgreSQL's migrations, derived from prisma/schema.prisma by `npm run db:postgres` (scripts/db/postgres.ts). */
export const POSTGRES_MIGRATIONS_DIR = path.join(root, "prisma", "postgresql", "migrations");

/**
 * Brings a database up to the schema: SQLite through the Prisma CLI (prisma/migrations), PostgreSQL through
 * DreamGym's runner (prisma/postgresql/migrations). Idempotent, and safe when several processes start at once.
 */
export async function migrateDeploy(databaseUrl: string): Promise<void> {
  if (isPostgresUrl(databaseUrl)) return migratePostgres(databaseUrl);
  return migrateSqlite(databaseUrl);
}

/** Applies prisma/migrations to a SQLite file (the Prisma CLI, offline, through the libsql adapter). */
async function migrateSqlite(databaseUrl: string): Promise<void> {
  const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
  for (let attempt = 1; ; attempt++) {
    try {
      await run(process.execPath, [prisma, "migrate", "deploy"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      });
      return;
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      const detail = e.stderr || e.stdout || e.message;
      // The engine's message for a locked file varies by where it was caught; a migration that is wrong just
      // fails ATTEMPTS times, a few seconds later.
      if (attempt < ATTEMPTS) {
        await sleep(RETRY_MS * attempt);
        continue;
      }
      throw new Error(`prisma migrate deploy failed for ${databaseUrl}:\n${detail}`);
    }
  }
}

/**
 * The applied migrations' record. Not Prisma's _prisma_migrations: Prisma 6's migrate commands cannot reach
 * PostgreSQL offline through a driver adapter, so this runner owns the table, and nothing else writes it.
 */
const MIGRATIONS_TABLE = "_dreamgym_migrations";

/** Any constant: the advisory lock that makes concurrent deploys on one database take turns. */
const DEPLOY_LOCK = 720_190_001;

export interface PostgresMigration {
  name: string;
  sql: string;
  checksum: string;
}

/** The migrations in prisma/postgresql/migrations, oldest first (their names begin with a timestamp). */
export function postgresMigrations(dir: string = POSTGRES_MIGRATIONS_DIR): PostgresMigration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies the PostgreSQL migrations not yet applied, each in a transaction of its own together with its record
 * (PostgreSQL's DDL is transactional: a migration that fails leaves nothing behind). A session-level advisory lock
 * serialises deploys: a web server and workers starting together each find the others' work done. A migration
 * whose file changed after it was applied is an error, not something to apply again.
 */
async function migratePostgres(databaseUrl: string, dir: string = POSTGRES_MIGRATIONS_DIR): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot reach PostgreSQL at ${redactDatabaseUrl(databaseUrl)} to migrate it: ${(error as Error).message}`,
    );
  }
  try {
    await client.query("SET client_min_messages = warning");
    await client.query("SELECT pg_advisory_lock($1)", [DEPLOY_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (
      name TEXT PRIMARY KEY, checksum TEXT NOT NULL, "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM "${MIGRATIONS_TABLE}"`,
    );
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    for (const migration of postgresMigrations(dir)) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum)
          throw new Error(
            `PostgreSQL migration ${migration.name} was changed after it was applied: add a new migration instead (npm run db:postgres)`,
          );
        continue;
      }
      try {
        await client.query("BEGIN");
        await client.query(migration.sql);
        await client.query(`INSERT INTO "${MIGRATIONS_TABLE}" (name, checksum) VALUES ($1, $2)`, [
          migration.name,
          migration.checksum,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw new Error(`PostgreSQL migration ${migration.name} failed: ${(error as Error).message}`);
      }
    }
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end().catch(() => {});
  }
}
