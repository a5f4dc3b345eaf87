import fs from "node:fs";
import path from "node:path";

/**
 * The SQLite URL, from DATABASE_URL or the default under the data folder (DREAMGYM_DATA_DIR, ./data). Kept free
 * of other imports because prisma.config.ts loads it before anything else exists.
 */
export function databaseUrl(env: Record<string, string | undefined> = process.env, dataDir?: string): string {
  const fromEnv = env.DATABASE_URL;
  if (fromEnv) return fromEnv;
  const dir = path.resolve(/*turbopackIgnore: true*/ dataDir ?? env.DREAMGYM_DATA_DIR ?? "data");
  fs.mkdirSync(/*turbopackIgnore: true*/ dir, { recursive: true });
  return `file:${path.join(dir, "dreamgym.db")}`;
}
