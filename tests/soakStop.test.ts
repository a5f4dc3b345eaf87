import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Processes whose environment names the folder: the soak's workers, environment server and helpers. */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, "latin1").includes(dir)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/**
 * A soak stopped by a signal (Ctrl-C in its terminal, or a `kill` of it alone) takes its workers, which live in
 * process groups of their own, its environment server and its helpers down with it, unmounts its small disk and
 * removes its data folder: nothing of it outlives it.
 */
it("a soak stopped by SIGTERM leaves no process, mount or folder behind", async () => {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts", "soak", "main.ts"), "--minutes", "1", "--seed", "5"],
    { cwd: ROOT, env: { ...process.env, DREAMGYM_TEST_POSTGRES_URL: "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stderr.on("data", (d) => {
    log += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const running = await new Promise<boolean>((resolve) => {
    const timer = setInterval(() => {
      if (/workers .* started/.test(log)) {
        clearInterval(timer);
        resolve(true);
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        resolve(false);
      }
    }, 200);
  });
  expect(running, log).toBe(true);
  const dir = /\) in (\S+)/.exec(log)?.[1];
  expect(dir, log).toBeDefined();
  if (!dir) return;
  // Let the load begin: jobs claimed, episodes open.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  expect(processesIn(dir).length, log).toBeGreaterThanOrEqual(4);

  child.kill("SIGTERM");
  expect(await exited, log).toBe(143);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(processesIn(dir), log).toEqual([]);
  expect(fs.readFileSync("/proc/mounts", "utf8"), log).not.toContain(dir);
  expect(fs.existsSync(dir), log).toBe(false);
}, 180_000);
