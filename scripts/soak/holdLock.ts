/**
 * Another process holding the database's write lock, for the soak's lock episodes:
 *   node --import tsx scripts/soak/holdLock.ts <database url> <ms> [table]
 * SQLite: BEGIN IMMEDIATE (no other connection can write until it ends). PostgreSQL: LOCK TABLE <table> IN ACCESS
 * EXCLUSIVE MODE (no other session can even read it). Prints "locked" once it holds the lock, rolls back after
 * <ms> and exits 0.
 */
import { createClient } from "@libsql/client";
import pg from "pg";

const [url, msText, table = "Job"] = process.argv.slice(2);
const ms = Number(msText);
if (!url || !Number.isFinite(ms)) {
  process.stderr.write("usage: holdLock.ts <database url> <ms> [table]\n");
  process.exit(2);
}
const hold = () => new Promise((resolve) => setTimeout(resolve, ms));

if (url.startsWith("file:")) {
  const client = createClient({ url });
  // Waits for a writer that holds the lock now, as any other connection would.
  await client.execute("PRAGMA busy_timeout = 30000");
  const tx = await client.transaction("write");
  process.stdout.write("locked\n");
  await hold();
  await tx.rollback();
  client.close();
} else {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE "${table.replaceAll('"', "")}" IN ACCESS EXCLUSIVE MODE`);
  process.stdout.write("locked\n");
  await hold();
  await client.query("ROLLBACK");
  await client.end();
}
