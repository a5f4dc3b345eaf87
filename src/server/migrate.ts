import { execFile } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Tries before giving up. Deploying is idempotent, but several processes starting on one SQLite file at once (the
 * table bench's parallel CLI runs, a worker beside the web) can find it locked by another's deploy.
 */
const ATTEMPTS = 4;
const RETRY_MS = 1_500;

/** Applies prisma/migrations to a database (the Prisma CLI, offline, through the libsql adapter). */
export async function migrateDeploy(databaseUrl: string): Promise<void> {
  const root = path.resolve(import.meta.dirname, "../..");
  const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
  for (let attempt = 1; ; attempt++) {
    try {
      await run(process.execPath, [prisma, "migrate", "deploy"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      });
      return;
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      const detail = e.stderr || e.stdout || e.message;
      // The engine's message for a locked file varies by where it was caught; a migration that is wrong just
      // fails ATTEMPTS times, a few seconds later.
      if (attempt < ATTEMPTS) {
        await sleep(RETRY_MS * attempt);
        continue;
      }
      throw new Error(`prisma migrate deploy failed for ${databaseUrl}:\n${detail}`);
    }
  }
}
