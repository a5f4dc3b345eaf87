import { randomBytes } from "node:crypto";
import pg from "pg";

/** A fresh, empty PostgreSQL database on the server at `serverUrl` (whose role may create databases), and its drop. */
export async function createPostgresDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `dreamgym_soak_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  // Sorted by code point, as SQLite sorts: the app's ORDER BYs read the same on both.
  await admin(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      for (let attempt = 1; ; attempt++)
        try {
          await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          return;
        } catch (error) {
          if (attempt >= 10) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
    },
  };
}
