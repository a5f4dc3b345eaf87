import os from "node:os";
import { config } from "@/env";
import { getDb } from "@/server/db";
import { HeartbeatThread } from "@/server/queue/heartbeatThread";
import { runWorkerLoop } from "@/server/queue/worker";
import { reconcile } from "@/server/replay/reconcile";
import { withReplayBuffer } from "@/server/replay/sharedReplayBuffer";
import { indexPending } from "@/server/replay/syncSteps";
import { createHandlers } from "./handlers";
import { isStopMessage, STOP_SIGNALS } from "./stopSignals";
import { supervisorPid } from "./supervisor";

/**
 * The worker proper: claims jobs and runs them. Several loops may run in one process (worker.loops) and several
 * processes against one database; the queue's leases keep them from running the same job. It runs under its
 * supervisor (supervisor.ts), which tells it to stop; a stop signal of its own, or its supervisor's end, stops it
 * too. Stopping hands the current job back to the queue at the job's next check, and the process exits 0.
 */
export async function runWorker(log: (line: string) => void): Promise<void> {
  const settings = config();
  const db = await getDb();
  const stop = new AbortController();
  const stopFor = (why: string) => {
    if (stop.signal.aborted) return;
    log(`worker: stopping (${why}): the current job goes back to the queue at its next check`);
    stop.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => stopFor(signal));
  process.on("message", (message) => {
    if (isStopMessage(message)) stopFor(message.signal);
  });
  process.on("disconnect", () => stopFor("the supervising process is gone"));
  // The channel to the supervisor does not keep the process alive once the loops have stopped.
  process.channel?.unref();

  const handlers = createHandlers();
  // What a worker that died left between the two stores is mended before any job runs: rows of steps it deleted
  // (a crash between a deletion's commit and its LanceDB write) go, steps it wrote while no worker ran (a crash
  // between the Prisma write and the LanceDB write, a CLI import) go into the replay buffer. Reconcile reads every
  // id once, so a start costs about a second per 100k steps.
  try {
    const repaired = await withReplayBuffer(db, (store) => reconcile(db, store));
    if (repaired.removed + repaired.requeued + repaired.duplicated > 0)
      log(
        `worker: reconciled the replay buffer: ${repaired.removed} rows of deleted steps removed, ${repaired.requeued} steps re-queued, ${repaired.duplicated} stored twice`,
      );
    const index = await indexPending(db, { signal: stop.signal });
    if (index.indexed > 0) log(`worker: indexed ${index.indexed} pending steps into the replay buffer`);
  } catch (error) {
    log(`worker: could not bring the replay buffer up to date: ${(error as Error).message}`);
  }
  // The process an operator sees and signals is the supervisor: the worker's id names it.
  const base = `${os.hostname()}:${supervisorPid() ?? process.pid}`;
  log(`worker: ${settings.worker.loops} loop(s), handling ${Object.keys(handlers).join(", ")}`);
  // Each loop beats on a thread of its own: a CPU-bound job cannot make its heartbeat late.
  const beats = Array.from(
    { length: settings.worker.loops },
    () => new HeartbeatThread(settings.databaseUrl),
  );
  await Promise.all(
    beats.map((heartbeatThread, i) =>
      runWorkerLoop({
        db,
        workerId: `${base}:${i}`,
        handlers,
        leaseMs: settings.worker.leaseMs,
        heartbeatMs: settings.worker.heartbeatMs,
        pollMs: settings.worker.pollMs,
        signal: stop.signal,
        heartbeatThread,
        log,
      }),
    ),
  );
  await Promise.all(beats.map((b) => b.close()));
  await db.$disconnect();
  log("worker: stopped");
}
