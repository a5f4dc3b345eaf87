/**
 * A worker that dies (SIGKILL, as the kernel would kill it) as soon as its train job has recorded an iteration:
 * the job keeps its lease, nothing is cleaned up. For the tests that a run survives any number of crashes.
 * Iteration i is committed while i+1 computes (iterationWriter.ts), so one more may be in by then.
 *   DATABASE_URL=… node --import tsx tests/helpers/crashingWorker.ts
 */
import { getDb } from "@/server/db";
import { runOneJob } from "@/server/queue/worker";
import { createHandlers } from "../../worker/handlers";

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
          // Killed once the progress beat is written too (the queue tells crash points apart by it), by which
          // time the next iteration may be in as well.
          if (message?.startsWith("iteration ")) setTimeout(() => process.kill(process.pid, "SIGKILL"), 100);
        },
      }),
  },
});
process.stderr.write("crashingWorker: the job ended before it recorded an iteration\n");
process.exit(3);
