/**
 * The app as the page benchmarks measure it: a production build started the way `npm start` starts it, on its own
 * data folder with no demo seed, on a free port of 127.0.0.1; and the browser that loads it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { type Browser, chromium } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The config file a benchmark's data folder gets: its own data only, never the demo seed. */
export function benchConfig(dataDir: string): string {
  const file = path.join(dataDir, "bench.config.json");
  fs.writeFileSync(file, JSON.stringify({ demo: { seedOnEmpty: false } }));
  return file;
}

export interface RunningApp {
  base: string;
  /** The bench admin's session: a Cookie header for fetch, and the same cookies for a browser context. */
  session: { headers: Record<string, string>; storageState: { cookies: BrowserCookie[]; origins: [] } };
  stop(): Promise<void>;
}

interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Lax";
}

/** The admin every bench app starts with (scripts/start.ts makes it), who signs in to measure the pages. */
const BENCH_ADMIN = { email: "bench@dreamgym.local", password: "bench-admin-password" };

/** Signs the bench admin in over HTTP, as the sign-in page does, and keeps the session cookies it sets. */
async function signIn(base: string): Promise<RunningApp["session"]> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!response.ok) throw new Error(`bench sign-in answered ${response.status}: ${await response.text()}`);
  const pairs = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const host = new URL(base).hostname;
  const cookies = pairs.map((pair) => {
    const at = pair.indexOf("=");
    return {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      domain: host,
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: "Lax" as const,
    };
  });
  return { headers: { cookie: pairs.join("; ") }, storageState: { cookies, origins: [] } };
}

/** Starts web and worker on the data folder (building into .next-bench when the sources changed) and waits. */
export async function startApp(dataDir: string, timeoutMs = 20 * 60_000): Promise<RunningApp> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DREAMGYM_DATA_DIR: dataDir,
    DREAMGYM_CONFIG: benchConfig(dataDir),
    DREAMGYM_ADMIN_EMAIL: BENCH_ADMIN.email,
    DREAMGYM_ADMIN_PASSWORD: BENCH_ADMIN.password,
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || ".next-bench",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "start.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  const log = fs.createWriteStream(path.join(dataDir, "server.log"));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${base}/api/trpc/users.me`, child, timeoutMs);
    return { base, session: await signIn(base), stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (code ${child.exitCode}) before it was up; see server.log`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000} s`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  // start.ts stops its web and worker children on SIGTERM.
  child.kill("SIGTERM");
  const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
  return exited.finally(() => clearTimeout(force));
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
