import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { onStop } from "./onStop";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * One worker process (`worker/main.ts`, as `npm run worker` starts it) in a process group of its own, so that
 * killing it takes all of it at once, the way the kernel's OOM killer or a lost machine would.
 */
export class WorkerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  startedAt = 0;
  starts = 0;

  constructor(
    readonly name: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logFile: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  start(): void {
    const log = fs.openSync(this.logFile, "a");
    this.child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "worker", "main.ts")], {
      cwd: ROOT,
      env: this.env,
      detached: true,
      stdio: ["ignore", log, log],
    });
    fs.closeSync(log);
    const child = this.child;
    const pid = child.pid;
    // A signal to the probe does not reach this group: take it down with the probe (continued first, if paused).
    const undo = onStop(() => {
      if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      for (const signal of ["SIGCONT", "SIGKILL"] as const)
        try {
          process.kill(-pid, signal);
        } catch {
          // Gone meanwhile.
        }
    });
    this.exited = new Promise((resolve) =>
      child.once("exit", () => {
        undo();
        resolve();
      }),
    );
    this.startedAt = Date.now();
    this.starts++;
  }

  /** kill -9 of the whole process group: nothing is cleaned up, the job keeps its lease until it runs out. */
  async kill(): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    process.kill(-pid, "SIGKILL");
    await this.exited;
  }

  /** SIGTERM: the worker hands its job back and exits. */
  async stop(): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    process.kill(-pid, "SIGTERM");
    const timeout = setTimeout(() => process.kill(-pid, "SIGKILL"), 30_000);
    await this.exited;
    clearTimeout(timeout);
  }
}
