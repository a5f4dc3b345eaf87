/**
 * Starts the helpdesk sample environment (server.py) as a process of its own, the way a user's environment runs
 * outside the app: for tests, the remote-rollouts benchmark and the browser tests.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";

const SERVER = path.join(import.meta.dirname, "server.py");

export interface HelpdeskOptions {
  /** 0: any free port (the default). */
  port?: number;
  /** Sleep before every reply, as a slower environment would. */
  latencyMs?: number;
  token?: string;
}

export interface Helpdesk {
  url: string;
  port: number;
  proc: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
  /** kill -9: gone at once, its sessions with it. */
  kill(): Promise<void>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

export function startHelpdesk(options: HelpdeskOptions = {}): Promise<Helpdesk> {
  const args = [SERVER, "--port", String(options.port ?? 0)];
  if (options.latencyMs) args.push("--latency-ms", String(options.latencyMs));
  if (options.token) args.push("--token", options.token);
  const proc = spawn("python3", args);
  let stdout = "";
  let stderr = "";
  proc.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return new Promise<Helpdesk>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the helpdesk server did not start: ${stderr}`)), 15_000);
    void exited.then((code) => reject(new Error(`the helpdesk server exited (${code}): ${stderr}`)));
    proc.stdout.on("data", (chunk) => {
      stdout += chunk;
      const m = /^listening on (http:\/\/\S+?:(\d+))\s*\n/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1] as string,
        port: Number(m[2]),
        proc,
        exited,
        async kill() {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
          await exited;
        },
        async stop() {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
          return exited;
        },
      });
    });
  });
}
