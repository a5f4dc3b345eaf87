/**
 * PostgreSQL's Prisma schema is prisma/schema.prisma with another datasource and another client output: the same
 * models, so that both generated clients have the same model types. It is derived, never edited by hand; a test
 * (tests/postgresSchema.test.ts) fails when the committed copy and its migrations are not in step with the schema.
 */
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const SQLITE_MIGRATIONS = path.join(root, "prisma", "migrations");
export const POSTGRES_DIR = path.join(root, "prisma", "postgresql");
export const POSTGRES_SCHEMA = path.join(POSTGRES_DIR, "schema.prisma");
export const POSTGRES_MIGRATIONS = path.join(POSTGRES_DIR, "migrations");

const HEADER = `// GENERATED from prisma/schema.prisma by \`npm run db:postgres\`: do not edit. Change prisma/schema.prisma, add its
// SQLite migration, then run that command: it rewrites this file, adds the PostgreSQL migration that brings a database
// from the previous copy of this file to this one, and generates the PostgreSQL client (src/generated/prisma-pg).
`;

const GENERATOR_OUTPUT = /output\s*=\s*"\.\.\/src\/generated\/prisma"/;
// The URL is never used (the app connects through the driver adapter with DATABASE_URL); it must be a literal:
// env("…") here makes \`prisma generate\` download a native engine, which cannot work offline.
const DATASOURCE = /datasource db \{[^}]*\}/;

export function derivePostgresSchema(sqliteSchema: string): string {
  if (!GENERATOR_OUTPUT.test(sqliteSchema))
    throw new Error("prisma/schema.prisma: generator output not found");
  if (!DATASOURCE.test(sqliteSchema)) throw new Error("prisma/schema.prisma: datasource db not found");
  const body = sqliteSchema
    .replace(GENERATOR_OUTPUT, 'output     = "../../src/generated/prisma-pg"')
    .replace(
      DATASOURCE,
      'datasource db {\n  provider = "postgresql"\n  url      = "postgresql://localhost/dreamgym"\n}',
    );
  return HEADER + body;
}

/** The newest SQLite migration's folder name: a new PostgreSQL migration is named after it, to keep them in step. */
export function newestSqliteMigration(): string {
  const names = fs
    .readdirSync(SQLITE_MIGRATIONS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const newest = names.at(-1);
  if (!newest) throw new Error("prisma/migrations holds no migration");
  return newest;
}
