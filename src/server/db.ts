import type { Client, Config } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { config } from "@/env";
import { PrismaClient } from "@/generated/prisma/client";
import { isPostgresUrl } from "./sql/dialect";
import { escapingLike } from "./sql/like";
import { createSqliteClient } from "./sqliteClient";
import { protectSqliteFiles } from "./sqliteFiles";

/**
 * The client the app programs against. Its types are those of the SQLite client; the PostgreSQL client, generated
 * from the same models (prisma/postgresql/schema.prisma, derived from prisma/schema.prisma), has the same model
 * types and accepts a superset of the inputs, so either is used through this type.
 */
export type Db = PrismaClient;

/** Several processes (web, workers, CLI) share one SQLite file: wait on a busy database instead of failing. */
const CONNECTION_PRAGMAS = ["PRAGMA busy_timeout = 15000", "PRAGMA foreign_keys = ON"];

/**
 * Prisma's libsql adapter over createSqliteClient's clients (see there for what they mend), whose LIKE escapes with
 * a backslash as PostgreSQL's does (sql/like.ts).
 */
class PrismaSqlite extends PrismaLibSQL {
  override createClient(config: Config): Client {
    return escapingLike(createSqliteClient(config, CONNECTION_PRAGMAS));
  }
}

/** The database each client was opened on, so that a thread can open its own connection to the same file. */
const urls = new WeakMap<Db, string>();

/**
 * A Prisma client on DATABASE_URL: PostgreSQL through node-postgres when it is a postgresql:// URL, otherwise the
 * SQLite file through libsql, in WAL mode so readers never block the writer, readable by its owner alone.
 */
export async function createDb(url: string = config().databaseUrl): Promise<Db> {
  const db = isPostgresUrl(url) ? await createPostgresDb(url) : await createSqliteDb(url);
  urls.set(db, url);
  return db;
}

async function createSqliteDb(url: string): Promise<Db> {
  protectSqliteFiles(url);
  const db = new PrismaClient({ adapter: new PrismaSqlite({ url }) });
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  for (const pragma of CONNECTION_PRAGMAS) await db.$queryRawUnsafe(pragma);
  return db;
}

/**
 * PostgreSQL's client is generated separately (its query compiler speaks PostgreSQL) and loaded only here, so that
 * a SQLite deployment never loads node-postgres. Sessions run in UTC: Prisma keeps DateTime as UTC timestamps
 * without a time zone, and raw SQL compares them with the app's Date values.
 */
async function createPostgresDb(url: string): Promise<Db> {
  const [{ PrismaPg }, { PrismaClient: PostgresClient }] = await Promise.all([
    import("@prisma/adapter-pg"),
    import("@/generated/prisma-pg/client"),
  ]);
  const adapter = new PrismaPg({ connectionString: url, options: "-c timezone=UTC" });
  const db = new PostgresClient({ adapter });
  await db.$connect();
  return db as unknown as Db;
}

/** The URL a client from createDb was opened with; undefined for any other client. */
export function databaseUrlOf(db: Db): string | undefined {
  return urls.get(db);
}

const globalForDb = globalThis as unknown as { dreamgymDb?: Promise<Db> };

/** One client per process (Next's dev server reloads modules; the global keeps it from opening many). */
export function getDb(): Promise<Db> {
  globalForDb.dreamgymDb ??= createDb();
  return globalForDb.dreamgymDb;
}

/**
 * Another process's write got in the way, not a bad request: SQLite's "database is locked" and "busy snapshot",
 * PostgreSQL's serialization failure and deadlock (the transaction was rolled back and may simply run again).
 */
export function isBusyError(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : "";
  return /SQLITE_BUSY|database is locked|could not serialize access|deadlock detected/i.test(text);
}

/**
 * Runs a short write again when the database answered busy: a transaction that read before another process committed
 * cannot write (whatever the busy timeout), but the same transaction started afresh can. Other errors pass through.
 */
export async function retryWhenBusy<T>(write: () => Promise<T>, attempts = 4, delayMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isBusyError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * attempt));
    }
  }
}
