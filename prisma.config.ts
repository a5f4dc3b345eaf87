import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { defineConfig } from "prisma/config";
import { databaseUrl } from "./src/env/database";

// Prisma 6 runs its schema engine as WebAssembly through the libsql adapter, so migrations work offline.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaLibSQL({ url: databaseUrl() });
  },
});
