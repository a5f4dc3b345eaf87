/**
 * Runs a script of the standard-library Python adapter (adapters/python) against a server of this process, and
 * reads the JSON line it ends with. spawn, not spawnSync: the server answers from this process's event loop.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export const ADAPTER = path.resolve(import.meta.dirname, "../../adapters/python");

export function runAdapterScript<T = Record<string, unknown>>(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<T> {
  const child = spawn("python3", [path.join(ADAPTER, script), ...args], {
    env: { ...process.env, PYTHONPATH: ADAPTER, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`${script} failed (${code}):\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1) as string) as T);
    }),
  );
}
