import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Applies prisma/migrations to a database (the Prisma CLI, offline, through the libsql adapter). */
export async function migrateDeploy(databaseUrl: string): Promise<void> {
  const root = path.resolve(import.meta.dirname, "../..");
  const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
  try {
    await run(process.execPath, [prisma, "migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`prisma migrate deploy failed for ${databaseUrl}:\n${e.stderr || e.stdout || e.message}`);
  }
}
