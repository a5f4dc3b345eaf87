import os from "node:os";
import { config } from "@/env";
import { getDb } from "@/server/db";
import { HeartbeatThread } from "@/server/queue/heartbeatThread";
import { runWorkerLoop } from "@/server/queue/worker";
import { indexPending } from "@/server/replay/syncSteps";
import { createHandlers } from "./handlers";

/**
 * The background process: claims jobs and runs them. Several loops may run in one process (worker.loops) and
 * several processes against one database; the queue's leases keep them from running the same job.
 */
async function main() {
  const settings = config();
  const db = await getDb();
  const stop = new AbortController();
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.on(sig, () => {
      if (stop.signal.aborted) process.exit(1);
      log(`worker: ${sig}, handing the current job back at its next check, then stopping (again to force)`);
      stop.abort();
    });
  }
  const handlers = createHandlers();
  // Steps written while no worker ran (a crash between the Prisma write and the LanceDB write, a CLI import)
  // go into the replay buffer before any job runs.
  try {
    const index = await indexPending(db, { signal: stop.signal });
    if (index.indexed > 0) log(`worker: indexed ${index.indexed} pending steps into the replay buffer`);
  } catch (error) {
    log(`worker: could not bring the replay buffer up to date: ${(error as Error).message}`);
  }
  const base = `${os.hostname()}:${process.pid}`;
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

main().catch((error) => {
  console.error("worker: fatal", error);
  process.exit(1);
});
