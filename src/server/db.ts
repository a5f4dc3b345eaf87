import { type Client, type Config, createClient, type TransactionMode } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { config } from "@/env";
import { PrismaClient } from "@/generated/prisma/client";

export type Db = PrismaClient;

/** Several processes (web, workers, CLI) share one SQLite file: wait on a busy database instead of failing. */
const CONNECTION_PRAGMAS = ["PRAGMA busy_timeout = 15000", "PRAGMA foreign_keys = ON"];

/**
 * libsql hands its connection to each interactive transaction and lazily opens a new one for what follows;
 * per-connection settings (busy timeout, foreign keys) would silently be lost after the first transaction. This
 * factory re-applies them to every new connection, while the adapter still holds its lock.
 */
class PrismaSqlite extends PrismaLibSQL {
  override createClient(config: Config): Client {
    const client = createClient(config);
    const configure = async () => {
      for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
    };
    const transaction = client.transaction.bind(client);
    client.transaction = async (mode?: TransactionMode) => {
      const tx = await transaction(mode);
      await configure();
      return tx;
    };
    void configure();
    return client;
  }
}

/** A Prisma client over SQLite through libsql, in WAL mode so readers never block the writer. */
export async function createDb(url: string = config().databaseUrl): Promise<Db> {
  const db = new PrismaClient({ adapter: new PrismaSqlite({ url }) });
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  for (const pragma of CONNECTION_PRAGMAS) await db.$queryRawUnsafe(pragma);
  return db;
}

const globalForDb = globalThis as unknown as { dreamgymDb?: Promise<Db> };

/** One client per process (Next's dev server reloads modules; the global keeps it from opening many). */
export function getDb(): Promise<Db> {
  globalForDb.dreamgymDb ??= createDb();
  return globalForDb.dreamgymDb;
}
