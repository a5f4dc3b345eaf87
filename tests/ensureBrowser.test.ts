import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { type BrowserDeps, DEFAULT_CHROMIUM, ensureBrowser, INSTALL_COMMAND } from "../scripts/ensureBrowser";

function fakeMachine(overrides: Partial<BrowserDeps> & { installs?: boolean } = {}) {
  const commands: string[] = [];
  let present = false;
  const deps: BrowserDeps = {
    chromiumPath: DEFAULT_CHROMIUM,
    isExecutable: () => present,
    isRoot: true,
    aptGet: "/usr/bin/apt-get",
    run: (command, args) => {
      commands.push([command, ...args].join(" "));
      if (args[0] === "install" && overrides.installs !== false) present = true;
      return args[0] === "install" && overrides.installs === false ? 100 : 0;
    },
    log: () => {},
    ...overrides,
  };
  return { deps, commands };
}

describe("npm test's browser check", () => {
  it("does nothing when Chromium is there", () => {
    const { deps, commands } = fakeMachine({ isExecutable: () => true });
    expect(ensureBrowser(deps)).toEqual({ ok: true, installed: false });
    expect(commands).toEqual([]);
  });

  it("installs Debian's chromium as root with apt", () => {
    const { deps, commands } = fakeMachine();
    expect(ensureBrowser(deps)).toEqual({ ok: true, installed: true });
    expect(commands).toEqual(["/usr/bin/apt-get update -qq", "/usr/bin/apt-get install -y -qq chromium"]);
  });

  it("stops with the one command to run when it cannot install, touching nothing", () => {
    for (const overrides of [{ isRoot: false }, { aptGet: undefined }]) {
      const { deps, commands } = fakeMachine(overrides);
      const result = ensureBrowser(deps);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain(INSTALL_COMMAND);
      expect(commands).toEqual([]);
    }
  });

  it("says so when the install fails", () => {
    const { deps } = fakeMachine({ installs: false });
    const result = ensureBrowser(deps);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toMatch(/failed \(exit 100\)/);
  });

  it("as a script, stops within seconds with a non-zero exit and the reason", async () => {
    const started = performance.now();
    const script = path.resolve(import.meta.dirname, "../scripts/ensureBrowser.ts");
    const run = promisify(execFile)(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" },
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("/nonexistent/chromium"),
    });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
