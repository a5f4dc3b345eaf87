/**
 * The first step of `npm test`: the browser tests need Chromium (Playwright cannot download its own here), so
 * make sure it is there before minutes of other tests run. As root with apt, install Debian's package; otherwise
 * stop at once with the one command that fixes it.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
export const INSTALL_COMMAND = "sudo apt-get install -y chromium";

export interface BrowserDeps {
  /** Where Playwright will launch Chromium (playwright.config.ts reads CHROMIUM_PATH the same way). */
  chromiumPath: string;
  isExecutable(file: string): boolean;
  isRoot: boolean;
  /** The apt-get binary on PATH, if any. */
  aptGet: string | undefined;
  /** Runs a command with inherited output; returns its exit status. */
  run(command: string, args: string[], env: Record<string, string>): number;
  log(line: string): void;
}

export type BrowserCheck = { ok: true; installed: boolean } | { ok: false; message: string };

export function ensureBrowser(deps: BrowserDeps): BrowserCheck {
  if (deps.isExecutable(deps.chromiumPath)) return { ok: true, installed: false };
  const missing = `The browser tests need Chromium at ${deps.chromiumPath}, and it is not there.`;
  if (deps.chromiumPath !== DEFAULT_CHROMIUM)
    return {
      ok: false,
      message: `${missing} Point CHROMIUM_PATH at a Chromium binary, or unset it to use ${DEFAULT_CHROMIUM}.`,
    };
  if (!deps.isRoot || !deps.aptGet)
    return {
      ok: false,
      message: `${missing} Install it with:\n\n  ${INSTALL_COMMAND}\n\n(or set CHROMIUM_PATH to a Chromium binary), then run npm test again.`,
    };
  deps.log(
    "npm test: installing Debian's chromium for the browser tests (apt-get install chromium, about a minute)",
  );
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const updated = deps.run(deps.aptGet, ["update", "-qq"], env);
  const installed =
    updated === 0 ? deps.run(deps.aptGet, ["install", "-y", "-qq", "chromium"], env) : updated;
  if (installed !== 0 || !deps.isExecutable(deps.chromiumPath))
    return {
      ok: false,
      message: `${missing} Installing it with apt-get failed (exit ${installed}); try:\n\n  ${INSTALL_COMMAND}\n`,
    };
  return { ok: true, installed: true };
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir && isExecutable(file)) return file;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = ensureBrowser({
    chromiumPath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM,
    isExecutable,
    isRoot: process.getuid?.() === 0,
    aptGet: onPath("apt-get"),
    run: (command, args, env) =>
      spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1,
    log: (line) => console.log(line),
  });
  if (!result.ok) {
    console.error(`\n${result.message}\n`);
    process.exit(1);
  }
}
