/**
 * The two databases DreamGym runs on, and the few places where their SQL differs. Raw SQL elsewhere is written
 * once in the subset both speak: identifiers quoted ("leaseUntil"), booleans as true/false, NULL-safe comparison
 * as IS NOT DISTINCT FROM, and values as Prisma's tagged-template parameters (Prisma writes each database's
 * placeholders). What cannot be shared is asked of this module, so that each difference lives in one place.
 */

import type { PrismaClient } from "@/generated/prisma/client";
import { Prisma } from "@/generated/prisma/client";

/** The app's Prisma client (server/db.ts `Db`), named here without importing db.ts, which imports this module. */
type Db = PrismaClient;

export type Dialect = "sqlite" | "postgresql";

/** DATABASE_URL names PostgreSQL (postgresql:// or postgres://); anything else is a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The dialect of a Prisma client or of a transaction client inside `$transaction` (both carry the provider their
 * client was generated for; transaction clients are proxies of theirs).
 */
export function dialectOf(db: object): Dialect {
  const provider = (db as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" ? "postgresql" : "sqlite";
}

/**
 * SQL text written with SQLite's `?` placeholders, as PostgreSQL wants it: $1, $2 … in order. A `?` inside a quoted
 * string or identifier is left alone. For the $queryRawUnsafe/$executeRawUnsafe call sites (dynamic column lists,
 * multi-row VALUES); tagged templates need nothing, Prisma numbers their parameters itself.
 */
export function placeholders(db: object, sql: string): string {
  if (dialectOf(db) !== "postgresql") return sql;
  let n = 0;
  let out = "";
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      n++;
      out += `$${n}`;
    } else out += ch;
  }
  return out;
}

type UnsafeQuery = Pick<Db, "$queryRawUnsafe">;
type UnsafeExecute = Pick<Db, "$executeRawUnsafe">;

/** $queryRawUnsafe with `?` placeholders on either database. */
export function queryUnsafe<T>(db: UnsafeQuery, sql: string, ...params: unknown[]): Promise<T> {
  return db.$queryRawUnsafe<T>(placeholders(db, sql), ...params);
}

/** $executeRawUnsafe with `?` placeholders on either database. */
export function executeUnsafe(db: UnsafeExecute, sql: string, ...params: unknown[]): Promise<number> {
  return db.$executeRawUnsafe(placeholders(db, sql), ...params);
}

/** A boolean as a bound parameter: SQLite stores Prisma's booleans as 0 and 1, PostgreSQL has booleans. */
export function boolParam(db: object, value: boolean): boolean | number {
  return dialectOf(db) === "postgresql" ? value : value ? 1 : 0;
}

/** The values of a group joined by a separator: SQLite's group_concat, PostgreSQL's string_agg (over text). */
export function groupConcat(db: object, expression: Prisma.Sql, separator: string): Prisma.Sql {
  return dialectOf(db) === "postgresql"
    ? Prisma.sql`string_agg(CAST(${expression} AS TEXT), ${separator})`
    : Prisma.sql`group_concat(${expression}, ${separator})`;
}

/** The tables a write-locked transaction keeps others from writing (PostgreSQL); the queue's are not among them. */
const DATA_TABLES = [
  "Task",
  "Trajectory",
  "Step",
  "Annotation",
  "AnnotationEvent",
  "Run",
  "Checkpoint",
  "RunMetric",
  "TaskStat",
];

/**
 * Makes a transaction the only writer until it commits, so that what it reads next stays true. SQLite: a no-op
 * UPDATE takes the database's write lock (Prisma's transactions are deferred). PostgreSQL: SHARE ROW EXCLUSIVE on
 * the data tables, which lets readers on but makes every other writer of them (and every other such transaction)
 * wait for the commit; the queue's tables stay free, so heartbeats and claims go on meanwhile.
 */
export async function lockForWriting(tx: Pick<Db, "$executeRaw" | "$executeRawUnsafe">): Promise<void> {
  if (dialectOf(tx) === "postgresql")
    await tx.$executeRawUnsafe(
      `LOCK TABLE ${DATA_TABLES.map((t) => `"${t}"`).join(", ")} IN SHARE ROW EXCLUSIVE MODE`,
    );
  else await tx.$executeRaw`UPDATE "Setting" SET key = key WHERE 0 = 1`;
}

/**
 * Waits for a deletion that holds the write lock (lockForWriting) before a transaction reads which tasks exist and
 * references them. PostgreSQL: ROW EXCLUSIVE on Task, which writers share with each other but not with a deletion's
 * lock; the statements after it see what the deletion committed. SQLite: the database's write lock, as above.
 */
export async function waitForDeletions(tx: Pick<Db, "$executeRaw" | "$executeRawUnsafe">): Promise<void> {
  if (dialectOf(tx) === "postgresql") await tx.$executeRawUnsafe(`LOCK TABLE "Task" IN ROW EXCLUSIVE MODE`);
  else await tx.$executeRaw`UPDATE "Setting" SET key = key WHERE 0 = 1`;
}

/**
 * A case-insensitive "contains" filter for Prisma, as a search box means it: SQLite's LIKE ignores ASCII case by
 * itself; PostgreSQL's needs Prisma's insensitive mode (ILIKE), which SQLite's client types do not know.
 */
export function containsText(dialect: Dialect, text: string): Prisma.StringFilter {
  return (
    dialect === "postgresql" ? { contains: text, mode: "insensitive" } : { contains: text }
  ) as Prisma.StringFilter;
}
