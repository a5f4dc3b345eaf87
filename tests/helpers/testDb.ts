import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe } from "vitest";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy, postgresMigrations } from "@/server/migrate";
import type { Dialect } from "@/server/sql/dialect";

/**
 * Where the tests find PostgreSQL: a URL whose user may create databases, e.g.
 * postgresql://dreamgym:dreamgym@127.0.0.1:5432/postgres (.ci/postgres starts a server and prints one; .ci/run
 * exports it). Each test database is created on that server and dropped after. Unset, the PostgreSQL variants of
 * the tests are reported as skipped, except in CI (CI=true), where that is an error.
 */
export const TEST_POSTGRES_URL_VAR = "DREAMGYM_TEST_POSTGRES_URL";

export function testPostgresUrl(): string | undefined {
  return process.env[TEST_POSTGRES_URL_VAR] || undefined;
}

/** The databases the tests run against here: SQLite always, PostgreSQL when DREAMGYM_TEST_POSTGRES_URL is set. */
export function testDialects(): Dialect[] {
  if (testPostgresUrl()) return ["sqlite", "postgresql"];
  if (process.env.CI === "true" || process.env.CI === "1")
    throw new Error(
      `CI is set but ${TEST_POSTGRES_URL_VAR} is not: the PostgreSQL tests would not run (.ci/run sets it)`,
    );
  return ["sqlite"];
}

let saidWhatDidNotRun = false;

/**
 * Declares a suite once per database: `describeEachDatabase("job queue", (dialect) => { … })` gives "job queue
 * (sqlite)" and "job queue (postgresql)". Without a PostgreSQL server (allowed outside CI only) the second is not
 * declared, and the test process says once on stderr that the PostgreSQL variants did not run.
 */
export function describeEachDatabase(name: string, suite: (dialect: Dialect) => void): void {
  for (const dialect of testDialects()) describe(`${name} (${dialect})`, () => suite(dialect));
  if (!testDialects().includes("postgresql") && !saidWhatDidNotRun) {
    saidWhatDidNotRun = true;
    process.stderr.write(
      `PostgreSQL variants not run: ${TEST_POSTGRES_URL_VAR} is not set (.ci/run sets it)\n`,
    );
  }
}

let sqliteTemplate: Promise<string> | undefined;

/** Migrations are applied once per test process into a template file; each test database is a copy of it. */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-template-"));
    const file = path.join(dir, "template.db");
    await migrateDeploy(`file:${file}`);
    return file;
  })();
  return sqliteTemplate;
}

export interface TestDb {
  db: Db;
  dialect: Dialect;
  url: string;
  dir: string;
  /** Another client on the same database, as a second process would have. */
  connectAgain(): Promise<Db>;
  cleanup(): Promise<void>;
}

export async function createTestDb(dialect: Dialect = "sqlite"): Promise<TestDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-test-"));
  let url: string;
  let drop = async () => {};
  if (dialect === "postgresql") {
    const database = await createPostgresTestDatabase();
    url = database.url;
    drop = database.drop;
  } else {
    const file = path.join(dir, "test.db");
    fs.copyFileSync(await migratedSqliteTemplate(), file);
    url = `file:${file}`;
  }
  const clients: Db[] = [await createDb(url)];
  return {
    db: clients[0] as Db,
    dialect,
    url,
    dir,
    async connectAgain() {
      const db = await createDb(url);
      clients.push(db);
      return db;
    },
    async cleanup() {
      await Promise.all(clients.map((c) => c.$disconnect()));
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The URL of another database on the same server as `url`. */
function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = testPostgresUrl();
  if (!url) throw new Error(`${TEST_POSTGRES_URL_VAR} is not set: no PostgreSQL server to test against`);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    // Set but unreachable is a broken setup, never a reason to skip.
    throw new Error(
      `${TEST_POSTGRES_URL_VAR} is set but PostgreSQL cannot be reached there: ${(error as Error).message}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database in UTF-8 that sorts text by code point, as SQLite does, whatever the server's locale: the
 * tests' expectations of ORDER BY hold on both databases.
 */
const FRESH = "TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'";

/** Any constant: test processes building the template database take turns. */
const TEMPLATE_LOCK = 720_190_002;

let postgresTemplate: Promise<string> | undefined;

/**
 * A migrated template database, named after the migrations it holds, built once per server (and again when the
 * migrations change): every test database is a copy of it (CREATE DATABASE … TEMPLATE), which is much faster than
 * migrating each. It is built under a temporary name and renamed when complete, so a crash leaves no half template.
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= admin(async (client) => {
    const version = createHash("sha256")
      .update(
        postgresMigrations()
          .map((m) => `${m.name}:${m.checksum}`)
          .join("\n"),
      )
      .digest("hex")
      .slice(0, 16);
    const name = `dreamgym_template_${version}`;
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_${randomBytes(4).toString("hex")}`;
      await client.query(`CREATE DATABASE "${building}" ${FRESH}`);
      try {
        await migrateDeploy(withDatabase(testPostgresUrl() as string, building));
      } catch (error) {
        await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        throw error;
      }
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    }
    await client.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
    return name;
  });
  return postgresTemplate;
}

/** Tries before a drop that an autovacuum worker keeps refusing fails (see dropDatabase). */
const DROP_TRIES = 10;

/**
 * Drops a test database and ends its sessions. An autovacuum worker that started on it belongs to no role, so a
 * server whose test role lacks pg_signal_backend (.ci/postgres grants it) refuses to end it: the worker is done
 * in moments, and the drop is tried again.
 */
async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      return;
    } catch (error) {
      if (attempt >= DROP_TRIES || !/pg_signal_backend/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * A database of its own on the test server, dropped by `drop`: a copy of the migrated template, or empty (for
 * the migrations' own tests).
 */
export async function createPostgresTestDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const from = options.empty ? FRESH : `TEMPLATE "${await migratedPostgresTemplate()}"`;
  const name = `dreamgym_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}" ${from}`));
  return {
    url: withDatabase(testPostgresUrl() as string, name),
    drop: () => dropDatabase(name),
  };
}

/**
 * A test database that the app's own code uses as its data folder (DREAMGYM_DATA_DIR and LANCEDB_DIR point into
 * it), holding `episodes` offline episodes of the domain's noisy expert (ε 0.3, seed 1) on train tasks 0..n-1.
 */
export async function createOfflineDb(
  domain: "shop" | "household",
  episodes: number,
  dialect: Dialect = "sqlite",
): Promise<TestDb> {
  const t = await createTestDb(dialect);
  process.env.DREAMGYM_DATA_DIR = t.dir;
  process.env.LANCEDB_DIR = path.join(t.dir, "lancedb");
  // Loaded here only: most tests that use this file never collect, and the environments are large to import.
  const { collectOffline } = await import("@/server/collect/collectOffline");
  await collectOffline(t.db, {
    domain,
    policy: "noisy",
    episodes,
    split: "train",
    epsilon: 0.3,
    seed: 1,
    offset: 0,
  });
  return t;
}

/** createOfflineDb of the household, which most worker tests train in (short episodes, a warm start). */
export function createHouseholdOfflineDb(episodes: number, dialect: Dialect = "sqlite"): Promise<TestDb> {
  return createOfflineDb("household", episodes, dialect);
}
