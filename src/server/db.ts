import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { databaseUrl } from "@/env/database";
import { PrismaClient } from "@/generated/prisma/client";

export type Db = PrismaClient;

/** A Prisma client over SQLite through libsql. Waits on a busy database instead of failing, for several workers. */
export async function createDb(url: string = databaseUrl()): Promise<Db> {
  const db = new PrismaClient({ adapter: new PrismaLibSQL({ url }) });
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 15000");
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  return db;
}

const globalForDb = globalThis as unknown as { dreamgymDb?: Promise<Db> };

/** One client per process (Next's dev server reloads modules; the global keeps it from opening many). */
export function getDb(): Promise<Db> {
  globalForDb.dreamgymDb ??= createDb();
  return globalForDb.dreamgymDb;
}
