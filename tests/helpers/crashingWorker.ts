/**
 * A worker that dies (SIGKILL, as the kernel would kill it) shortly after its train job records iteration
 * KILL_AT: the job keeps its lease, nothing is cleaned up. For the tests that a run survives any number of crashes.
 *   DATABASE_URL=… KILL_AT=2 node --import tsx tests/helpers/crashingWorker.ts
 */
import { getDb } from "@/server/db";
import { runOneJob } from "@/server/queue/worker";
import { createHandlers } from "../../worker/handlers";

const killAt = `iteration ${process.env.KILL_AT}`;
const handlers = createHandlers();
const train = handlers.train!;
const db = await getDb();
await runOneJob({
  db,
  workerId: `crashing-${process.pid}`,
  leaseMs: Number(process.env.LEASE_MS ?? 500),
  heartbeatMs: 100,
  handlers: {
    train: (payload, ctx) =>
      train(payload, {
        ...ctx,
        progress(fraction, message) {
          ctx.progress(fraction, message);
          // Killed during the next iteration, once the progress beat is written (a worker does not die the very
          // microsecond it reports).
          if (message === killAt) setTimeout(() => process.kill(process.pid, "SIGKILL"), 100);
        },
      }),
  },
});
process.stderr.write(`crashingWorker: the job ended before ${killAt}\n`);
process.exit(3);
