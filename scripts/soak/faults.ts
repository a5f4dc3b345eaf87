import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { onStop } from "../chaos/onStop";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * The disk the SQLite database lives on: a small tmpfs of its own, which a filler file fills to its last byte for
 * a while and then frees. Mounting needs root.
 */
export class SmallDisk {
  private readonly filler: string;

  private constructor(readonly dir: string) {
    this.filler = path.join(dir, "filler");
  }

  /** The mounted disk, or why there cannot be one (then the soak runs without full-disk episodes). */
  static mount(dir: string, sizeMb: number): SmallDisk | string {
    if (process.getuid?.() !== 0) return "not root: cannot mount a small disk to fill";
    fs.mkdirSync(dir, { recursive: true });
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m`, "tmpfs", dir], { stdio: "pipe" });
    } catch (error) {
      return `mount -t tmpfs failed: ${(error as Error).message.split("\n")[0]}`;
    }
    return new SmallDisk(dir);
  }

  /** Bytes used and free on it. */
  usage(): { used: number; free: number } {
    const s = fs.statfsSync(this.dir);
    return { used: (s.blocks - s.bfree) * s.bsize, free: s.bavail * s.bsize };
  }

  /** Fills what is free, to the last block; returns the bytes written. */
  fill(): number {
    const fd = fs.openSync(this.filler, "w");
    const chunk = Buffer.alloc(1024 * 1024, 1);
    let written = 0;
    try {
      for (let size = chunk.length; size >= 512; size /= 2)
        try {
          for (;;) written += fs.writeSync(fd, chunk.subarray(0, size));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
        }
    } finally {
      fs.closeSync(fd);
    }
    return written;
  }

  free(): void {
    fs.rmSync(this.filler, { force: true });
  }

  /**
   * Frees the disk after `ms`, by a process of its own: on time even while this process's main thread waits on
   * the database (a SQLite client waits for a lock in the calling thread).
   */
  freeAfter(ms: number): Promise<void> {
    return runTimer(
      `setTimeout(() => require("node:fs").rmSync(${JSON.stringify(this.filler)}, { force: true }), ${ms});`,
    );
  }

  unmount(): void {
    this.free();
    try {
      execFileSync("umount", ["-l", this.dir], { stdio: "pipe" });
    } catch {
      // Already gone.
    }
  }
}

/** A short Node program of its own (a timer that must fire on time whatever this process is doing). */
function runTimer(program: string): Promise<void> {
  const child = spawn(process.execPath, ["-e", program], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`timer exited ${code}: ${stderr}`)),
    ),
  );
}

export interface Pause {
  /** Resolves once the group is stopped. */
  stopped: Promise<void>;
  /** Resolves once it has been continued. */
  continued: Promise<void>;
}

/**
 * SIGSTOP to a process group, SIGCONT `ms` later, by a process of its own: a stopped worker may hold SQLite's
 * write lock, and this process's main thread, waiting on that lock in a query, could not continue it on time.
 */
export function pauseGroup(pid: number, ms: number): Pause {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `process.kill(-${pid}, "SIGSTOP"); console.log("stopped");
       setTimeout(() => { try { process.kill(-${pid}, "SIGCONT"); } catch {} }, ${ms});`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  killWithProbe(child);
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const stopped = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      if (String(d).includes("stopped")) resolve();
    });
    child.once("exit", () => reject(new Error(`could not stop process group ${pid}: ${stderr.trim()}`)));
  });
  const continued = new Promise<void>((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`pausing process group ${pid} failed: ${stderr.trim()}`)),
    ),
  );
  stopped.catch(() => {});
  return { stopped, continued };
}

export interface HeldLock {
  /** Resolves once the lock is held, with the moment it was taken. */
  locked: Promise<number>;
  /** Resolves once the holder has let go and exited. */
  done: Promise<void>;
}

/** A process that holds the database's write lock (or a PostgreSQL table's ACCESS EXCLUSIVE lock) for `ms`. */
export function holdLock(databaseUrl: string, ms: number, table: string): HeldLock {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts", "soak", "holdLock.ts"), databaseUrl, String(ms), table],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  killWithProbe(child);
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const locked = new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("locked")) resolve(Date.now());
    });
    child.once("exit", (code) =>
      reject(new Error(`the lock holder exited (${code}) before locking: ${stderr}`)),
    );
  });
  const done = new Promise<void>((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`the lock holder exited ${code}: ${stderr.trim()}`)),
    ),
  );
  locked.catch(() => {});
  return { locked, done };
}

/** A helper process of the soak's goes when the soak is stopped by a signal (a held lock would outlive it). */
function killWithProbe(child: ChildProcess): void {
  const undo = onStop(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  child.once("exit", () => undo());
}
