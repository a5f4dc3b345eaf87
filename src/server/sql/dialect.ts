/**
 * The two databases DreamGym runs on, and the few places where their SQL differs. Raw SQL elsewhere is written
 * once in the subset both speak: identifiers quoted ("leaseUntil"), booleans as true/false, NULL-safe comparison
 * as IS NOT DISTINCT FROM, and values as Prisma's tagged-template parameters (Prisma writes each database's
 * placeholders). What cannot be shared is asked of this module, so that each difference lives in one place.
 */
import { Prisma } from "@/generated/prisma/client";

export type Dialect = "sqlite" | "postgresql";

/** DATABASE_URL names PostgreSQL (postgresql:// or postgres://); anything else is a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function dialectOfUrl(url: string): Dialect {
  return isPostgresUrl(url) ? "postgresql" : "sqlite";
}

/**
 * The dialect of a Prisma client or of a transaction client inside `$transaction` (both carry the provider their
 * client was generated for; transaction clients are proxies of theirs).
 */
export function dialectOf(db: object): Dialect {
  const provider = (db as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" ? "postgresql" : "sqlite";
}

/** `FOR UPDATE SKIP LOCKED` where rows can be locked (PostgreSQL); SQLite locks the whole file and has no such clause. */
export function skipLocked(db: object): Prisma.Sql {
  return dialectOf(db) === "postgresql" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty;
}
