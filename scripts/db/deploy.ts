/**
 * `npm run db:deploy`: applies the migrations to DATABASE_URL (or the default SQLite file), SQLite's or
 * PostgreSQL's as the URL says. `npm start`, the worker's CLI and the environment server do the same at start.
 */
import { config } from "@/env";
import { redactDatabaseUrl } from "@/env/database";
import { migrateDeploy } from "@/server/migrate";

const url = config().databaseUrl;
await migrateDeploy(url);
console.log(`migrations applied to ${redactDatabaseUrl(url)}`);
