/**
 * `npm start`: apply migrations, seed demo data into an empty database, build the web app if the sources changed
 * since the last build, then run web, worker and the environment server together. Ctrl-C stops them all; if one
 * dies, the others are stopped.
 * package.json runs it with `exec`, so that a signal sent to `npm start` reaches this process (a shell between
 * npm and node would swallow it).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/env";
import { redactDatabaseUrl } from "@/env/database";
import { authSecret } from "@/server/auth/auth";
import { ensureDemoUsers, ensureFirstAdmin } from "@/server/auth/bootstrap";
import { getDb } from "@/server/db";
import { seedDemoIfEmpty } from "@/server/demo/seedDemo";
import { migrateDeploy } from "@/server/migrate";
import { isPostgresUrl } from "@/server/sql/dialect";
import { protectSqliteFiles } from "@/server/sqliteFiles";

const root = path.resolve(import.meta.dirname, "..");
const log = (line: string) => console.log(`[start] ${line}`);
const BUILD_INPUTS = [
  "src",
  "public",
  "next.config.mjs",
  "package.json",
  "tsconfig.json",
  "prisma/schema.prisma",
];
const DIST_DIR = path.join(root, process.env.NEXT_DIST_DIR || ".next");
const STAMP = path.join(DIST_DIR, "dreamgym-build-stamp");

function* files(entry: string): Generator<string> {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isFile()) {
    yield full;
    return;
  }
  for (const child of fs.readdirSync(full).sort()) yield* files(path.join(entry, child));
}

/** A hash of what the build is made from: rebuild only when it changed. */
function sourceHash(): string {
  const hash = crypto.createHash("sha256");
  for (const entry of BUILD_INPUTS) {
    for (const file of files(entry)) {
      hash.update(path.relative(root, file));
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest("hex");
}

function buildIfNeeded() {
  const hash = sourceHash();
  const built =
    fs.existsSync(path.join(DIST_DIR, "BUILD_ID")) &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, "utf8") === hash;
  if (built && !process.env.DREAMGYM_FORCE_BUILD) {
    log("web build is up to date");
    return;
  }
  log("building the web app (next build)…");
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  fs.writeFileSync(STAMP, hash);
}

async function main() {
  const settings = config();
  log(`database ${redactDatabaseUrl(settings.databaseUrl)}`);
  // Before the migrations create it: a new SQLite file is its owner's alone, and an older one is made so.
  if (!isPostgresUrl(settings.databaseUrl)) protectSqliteFiles(settings.databaseUrl);
  await migrateDeploy(settings.databaseUrl);
  log("migrations applied");
  const db = await getDb();
  if (settings.demo.seedOnEmpty) {
    const seeded = await seedDemoIfEmpty(db, log);
    if (seeded) await ensureDemoUsers(db, settings, log);
    else log("database has data; no demo seed");
  }
  // Sign-in needs someone who can add the others: an admin, made now if there is none.
  await ensureFirstAdmin(db, settings, log);
  authSecret(settings);
  await db.$disconnect();
  buildIfNeeded();

  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: settings.databaseUrl };
  const children: ChildProcess[] = [
    // Next.js's production server behind DreamGym's, which tells the app each request's client address.
    spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "web.ts")], {
      cwd: root,
      stdio: "inherit",
      env: { ...env, NODE_ENV: "production" },
    }),
    spawn(process.execPath, ["--import", "tsx", path.join(root, "worker", "main.ts")], {
      cwd: root,
      stdio: "inherit",
      env,
    }),
  ];
  // The environment server for external trainers (OpenEnv, AgentGym): README "Train an LLM agent with verl…".
  // Not essential: if it cannot start (its port is taken), web and worker go on without it.
  const envServer = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "envServer.ts")], {
    cwd: root,
    stdio: "inherit",
    env,
  });
  const essential = [...children];
  children.push(envServer);
  log(
    `web on http://${settings.host}:${settings.port}, worker and environment server (port ${settings.envServer.port}) started; Ctrl-C (SIGINT) or SIGTERM stops them`,
  );

  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    const force = setTimeout(() => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    }, 10_000);
    force.unref();
    Promise.all(
      children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r)))),
    ).then(() => process.exit(code));
  };
  process.on("SIGINT", () => stopAll(0));
  process.on("SIGTERM", () => stopAll(0));
  for (const child of essential) {
    child.on("exit", (code) => {
      if (!stopping) {
        log(`a process exited (code ${code}); stopping the others`);
        stopAll(code ?? 1);
      }
    });
  }
  envServer.on("exit", (code) => {
    if (!stopping) log(`the environment server exited (code ${code}); web and worker go on without it`);
  });
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
