/**
 * `npm run db:postgres`: keeps PostgreSQL in step with prisma/schema.prisma. Run it after adding a SQLite
 * migration (or after a merge that brought one): it derives prisma/postgresql/schema.prisma, and when the models
 * changed, writes the PostgreSQL migration from the previous derived schema to the new one (Prisma's own diff,
 * which needs no database), named after the newest SQLite migration; then it generates the PostgreSQL client.
 * `--check` changes nothing and exits 1 when something is out of step.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  derivePostgresSchema,
  newestSqliteMigration,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA,
  root,
  SQLITE_SCHEMA,
} from "./postgresSchema";

const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");

function prismaCli(args: string[]): string {
  return execFileSync(process.execPath, [prisma, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function main() {
  const check = process.argv.includes("--check");
  const derived = derivePostgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
  const previous = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : null;
  if (previous === derived) {
    console.log("prisma/postgresql is in step with prisma/schema.prisma");
    if (!check) generateClient();
    return;
  }
  if (check) {
    console.error("prisma/postgresql is out of step with prisma/schema.prisma: run `npm run db:postgres`");
    process.exit(1);
  }
  const name = newestSqliteMigration();
  const target = path.join(POSTGRES_MIGRATIONS, name);
  if (fs.existsSync(target))
    throw new Error(
      `prisma/postgresql/migrations/${name} exists already: add the SQLite migration for this schema change first (npx prisma migrate dev --create-only), then run this again`,
    );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-pg-schema-"));
  try {
    const next = path.join(tmp, "next.prisma");
    fs.writeFileSync(next, derived);
    let from = ["--from-empty"];
    if (previous !== null) {
      const before = path.join(tmp, "previous.prisma");
      fs.writeFileSync(before, previous);
      from = ["--from-schema-datamodel", before];
    }
    const sql = prismaCli(["migrate", "diff", ...from, "--to-schema-datamodel", next, "--script"]);
    fs.mkdirSync(target, { recursive: true });
    fs.writeFileSync(path.join(target, "migration.sql"), sql);
    fs.writeFileSync(POSTGRES_SCHEMA, derived);
    console.log(
      `wrote prisma/postgresql/schema.prisma and prisma/postgresql/migrations/${name}/migration.sql`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  generateClient();
}

function generateClient() {
  prismaCli(["generate", "--schema", POSTGRES_SCHEMA]);
  console.log("generated the PostgreSQL client (src/generated/prisma-pg)");
}

main();
