/**
 * The lease heartbeat's own thread: its own event loop and its own database connection, so that a beat is never
 * late because the job on the main thread is computing. It tells the main thread when the lease is lost or the
 * job's cancellation was asked for; the main thread decides what to do.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../db";
import type { BeatMessage, FromBeat } from "./heartbeatThread";
import { heartbeat } from "./queue";
import { IMMEDIATE_BEAT_MS } from "./worker";

const { databaseUrl } = workerData as { databaseUrl: string };
const db = await createDb(databaseUrl);
let timer: NodeJS.Timeout | undefined;
let beating: Promise<void> = Promise.resolve();
let latest: { fraction?: number; message?: string } = {};
let beatNow: (() => void) | undefined;
let lastNow = 0;

const post = (m: FromBeat) => parentPort?.postMessage(m);

parentPort?.on("message", (m: BeatMessage) => {
  if (m.type === "start") {
    latest = {};
    const beat = async () => {
      const state = await heartbeat(db, m.jobId, m.workerId, m.leaseMs, latest).catch(() => null);
      if (!state) return;
      post({ type: "beat", jobId: m.jobId, at: Date.now(), ...state });
    };
    clearInterval(timer);
    beatNow = () => {
      beating = beating.then(beat);
    };
    timer = setInterval(beatNow, m.heartbeatMs);
  } else if (m.type === "progress") {
    const changed = m.progress.message !== undefined && m.progress.message !== latest.message;
    latest = m.progress;
    // Where a job is must be on record before it can crash there (a crash point is read from it).
    if (changed && beatNow && Date.now() - lastNow >= IMMEDIATE_BEAT_MS) {
      lastNow = Date.now();
      beatNow();
    }
  } else if (m.type === "stop") {
    clearInterval(timer);
    beatNow = undefined;
    timer = undefined;
    // A beat in flight finishes before the job is completed, so that it cannot renew a lease released after it.
    void beating.then(() => post({ type: "stopped" }));
  } else if (m.type === "close") {
    clearInterval(timer);
    void beating.then(() => db.$disconnect()).then(() => process.exit(0));
  }
});
post({ type: "ready" });
