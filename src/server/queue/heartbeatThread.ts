import { Worker } from "node:worker_threads";

/** What the main thread tells the heartbeat thread. */
export type BeatMessage =
  | { type: "start"; jobId: string; workerId: string; leaseMs: number; heartbeatMs: number }
  | { type: "progress"; progress: { fraction?: number; message?: string } }
  | { type: "stop" }
  | { type: "close" };

/** What it answers: a beat's outcome, that it has stopped, or that it is ready. */
export type FromBeat =
  | { type: "beat"; jobId: string; at: number; ownsLease: boolean; cancelRequested: boolean }
  | { type: "stopped" }
  | { type: "ready" };

export interface BeatListener {
  onBeat(state: { ownsLease: boolean; cancelRequested: boolean; at: number }): void;
}

/**
 * A worker loop's heartbeat on a thread of its own (one for the life of the loop, reused by every job): a job
 * that keeps the main thread busy for seconds cannot make a beat late, and so cannot lose its lease while alive.
 */
export class HeartbeatThread {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private listener: BeatListener | undefined;
  private jobId: string | undefined;
  private stopped: (() => void) | undefined;

  constructor(databaseUrl: string) {
    this.worker = new Worker(new URL("./heartbeatThread.boot.mjs", import.meta.url), {
      workerData: { databaseUrl },
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once("error", reject);
      this.worker.on("message", (m: FromBeat) => {
        if (m.type === "ready") resolve();
        else if (m.type === "stopped") this.stopped?.();
        else if (m.type === "beat" && m.jobId === this.jobId) this.listener?.onBeat(m);
      });
    });
  }

  /** Resolves once the thread can beat: claim a job only then. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async start(
    job: { jobId: string; workerId: string; leaseMs: number; heartbeatMs: number },
    listener: BeatListener,
  ): Promise<void> {
    await this.ready;
    this.jobId = job.jobId;
    this.listener = listener;
    this.send({ type: "start", ...job });
  }

  progress(progress: { fraction?: number; message?: string }): void {
    this.send({ type: "progress", progress });
  }

  /** Resolves once no beat for the job can happen any more. */
  async stop(): Promise<void> {
    const done = new Promise<void>((resolve) => {
      this.stopped = resolve;
    });
    this.send({ type: "stop" });
    await done;
    this.jobId = undefined;
    this.listener = undefined;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.worker.once("exit", resolve));
    this.send({ type: "close" });
    await exited;
  }

  private send(m: BeatMessage): void {
    this.worker.postMessage(m);
  }
}
