import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { defineConfig } from "prisma/config";
import { databaseUrl } from "./src/env/database";

// Prisma 6 runs its schema engine as WebAssembly through the libsql adapter, so migrations work offline. This
// config is SQLite's; PostgreSQL's schema and migrations are derived from it (prisma/postgresql, `npm run
// db:postgres`) and applied by DreamGym's own runner (`npm run db:deploy`, src/server/migrate.ts).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const url = databaseUrl();
    if (/^postgres(ql)?:/i.test(url))
      throw new Error(
        "The Prisma CLI here migrates SQLite only: apply PostgreSQL's migrations with `npm run db:deploy`",
      );
    return new PrismaLibSQL({ url });
  },
});
