import type { Db } from "@/server/db";
import { runOneJob } from "@/server/queue/worker";
import { createHandlers } from "../../worker/handlers";

/** The worker takes the next queued job and runs it to its end, as `npm run worker` would (a long lease). */
export function workOnce(db: Db, workerId = "w") {
  return runOneJob({ db, workerId, handlers: createHandlers(), leaseMs: 60_000, heartbeatMs: 1_000 });
}
