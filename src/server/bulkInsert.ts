import type { Db } from "./db";
import { boolParam, dialectOf, executeUnsafe } from "./sql/dialect";
import { directTransaction, withDirectWrites } from "./sqliteClient";

type Executor = Pick<Db, "$executeRawUnsafe">;
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export type SqlValue = string | number | boolean | null | Date | unknown[] | Record<string, unknown>;

/** SQLite allows 32,766 bound parameters per statement (PostgreSQL 65,535); stay well below. */
const MAX_PARAMS = 16_000;

/**
 * Prisma writes DateTime in SQLite as ISO text with "+00:00"; raw writes must match it so that text comparisons
 * hold. PostgreSQL reads the same text into its timestamps (UTC, as Prisma keeps them: a timestamp without time
 * zone ignores the offset, which is zero).
 */
export function sqlDate(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

function toParam(db: Executor, value: SqlValue): string | number | boolean | null {
  if (value === null) return null;
  if (value instanceof Date) return sqlDate(value);
  if (typeof value === "boolean") return boolParam(db, value);
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}

/**
 * Multi-row INSERTs for hot write paths (steps of rollouts): Prisma's createMany costs ~0.35 ms a row through the
 * libsql adapter, a bound multi-row INSERT ~0.06 ms. Run it inside a transaction to keep all-or-nothing. The same
 * statement on both databases (its `?` placeholders numbered for PostgreSQL). Inside a transaction started with
 * `withDirectWrites` on SQLite, the statements go to its libsql transaction directly (see there).
 */
export async function bulkInsert(
  db: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly SqlValue[][],
): Promise<void> {
  if (rows.length === 0) return;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const columnList = columns.map((c) => `"${c}"`).join(", ");
  const placeholders = `(${columns.map(() => "?").join(", ")})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const params: (string | number | boolean | null)[] = [];
    for (const row of chunk) {
      if (row.length !== columns.length)
        throw new Error(
          `bulkInsert into ${table}: a row has ${row.length} values for ${columns.length} columns`,
        );
      for (const value of row) params.push(toParam(db, value));
    }
    const sql = `INSERT INTO "${table}" (${columnList}) VALUES ${chunk.map(() => placeholders).join(", ")}`;
    const direct = dialectOf(db) === "sqlite" ? directTransaction() : undefined;
    if (direct) await direct.execute({ sql, args: params });
    else await executeUnsafe(db, sql, ...params);
  }
}

/**
 * A transaction that writes rows in bulk (rollouts, checkpoints): long enough for tens of thousands of steps, and
 * on SQLite its bulkInserts go to the libsql transaction directly (withDirectWrites).
 */
export function bulkTransaction<T>(db: Db, write: (tx: Tx) => Promise<T>): Promise<T> {
  return withDirectWrites(() => db.$transaction(write, { timeout: 300_000, maxWait: 30_000 }));
}
