import fs from "node:fs";
import path from "node:path";

/**
 * The database URL, from DATABASE_URL or the default SQLite file under the data folder (DREAMGYM_DATA_DIR,
 * ./data). DATABASE_URL may name a SQLite file (file:…) or a PostgreSQL server (postgresql://… or postgres://…).
 * Kept free of other imports because prisma.config.ts loads it before anything else exists.
 */
export function databaseUrl(env: Record<string, string | undefined> = process.env, dataDir?: string): string {
  const fromEnv = env.DATABASE_URL;
  if (fromEnv) return fromEnv;
  const dir = path.resolve(/*turbopackIgnore: true*/ dataDir ?? env.DREAMGYM_DATA_DIR ?? "data");
  // Owner only: it holds the database (sessions, password hashes), the auth secret and uploads.
  fs.mkdirSync(/*turbopackIgnore: true*/ dir, { recursive: true, mode: 0o700 });
  return `file:${path.join(dir, "dreamgym.db")}`;
}

/** Why a database URL is not one DreamGym can open, or null when it is. */
export function databaseUrlProblem(url: string): string | null {
  if (/^postgres(ql)?:\/\/[^/]/i.test(url)) return null;
  if (/^file:./i.test(url)) return null;
  return `DATABASE_URL must be a SQLite file (file:path/to/dreamgym.db) or a PostgreSQL server (postgresql://user:password@host:5432/database), not "${redactDatabaseUrl(url)}"`;
}

/** The URL with its password hidden, for logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]+:)[^@]*@/i, "$1***@");
}
