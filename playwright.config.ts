import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { authFile } from "./e2e/support/auth";

/**
 * e2e runs against a production build started by the README's own `npm start`, on a fresh database in its own
 * data folder, so each run starts the way a new user's first run does.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
// The config is loaded by the runner and again by each test worker; only the first load (which has not set the
// variable yet) picks a fresh folder and clears old ones, and the workers inherit its choice.
if (!process.env.E2E_DATA_DIR) {
  fs.rmSync(path.resolve(`e2e/.artifacts/${PORT}`), { recursive: true, force: true });
  process.env.E2E_DATA_DIR = path.resolve(`e2e/.artifacts/${PORT}/data-${Date.now()}`);
}
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: "e2e",
  // Sign-in first (e2e/auth.setup.ts); the journeys run as the researcher unless a spec says whom.
  projects: [
    { name: "sign-in", testMatch: /auth\.setup\.ts/ },
    {
      name: "journeys",
      dependencies: ["sign-in"],
      use: { storageState: authFile("researcher") },
    },
  ],
  outputDir: `test-results/${PORT}`,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1440, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "npx tsx scripts/start.ts",
    url: `http://127.0.0.1:${PORT}/api/trpc/users.me`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      // The environment server beside the app (e2e/externalRun.spec.ts drives a trainer's run through it).
      ENV_SERVER_PORT: String(PORT + 100),
      DREAMGYM_DATA_DIR: dataDir,
      // The journeys' admin (e2e/support/auth.ts); the demo people come with the demo data.
      DREAMGYM_ADMIN_EMAIL: "admin@e2e.local",
      DREAMGYM_ADMIN_PASSWORD: "e2e-admin-password",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
