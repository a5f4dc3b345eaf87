/**
 * The lease heartbeat's own thread: its own event loop and its own database connection, so that a beat is never
 * late because the job on the main thread is computing. It tells the main thread when the lease is lost or the
 * job's cancellation was asked for; the main thread decides what to do.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../db";
import { BeatSchedule } from "./beatSchedule";
import type { BeatMessage, FromBeat } from "./heartbeatThread";
import { heartbeat } from "./queue";

const { databaseUrl } = workerData as { databaseUrl: string };
const db = await createDb(databaseUrl);
let schedule: BeatSchedule | undefined;

const post = (m: FromBeat) => parentPort?.postMessage(m);

parentPort?.on("message", (m: BeatMessage) => {
  if (m.type === "start") {
    void schedule?.stop();
    let failing = false;
    schedule = new BeatSchedule(async (progress) => {
      const state = await heartbeat(db, m.jobId, m.workerId, m.leaseMs, progress).catch((error) => {
        // Once per run of failures, and again when beats come back: the lease runs out if they stay down.
        if (!failing)
          console.error(`heartbeat of job ${m.jobId} failed: ${(error as Error).message}; trying again`);
        failing = true;
        return null;
      });
      if (state && failing) console.error(`heartbeat of job ${m.jobId} is back`);
      if (state) failing = false;
      if (state) post({ type: "beat", jobId: m.jobId, at: Date.now(), ...state });
    }, m.heartbeatMs);
  } else if (m.type === "progress") {
    schedule?.progress(m.progress);
  } else if (m.type === "stop") {
    const stopping = schedule?.stop() ?? Promise.resolve();
    schedule = undefined;
    // A beat in flight finishes before the job is completed, so that it cannot renew a lease released after it.
    void stopping.then(() => post({ type: "stopped" }));
  } else if (m.type === "close") {
    void (schedule?.stop() ?? Promise.resolve()).then(() => db.$disconnect()).then(() => process.exit(0));
  }
});
post({ type: "ready" });
