/**
 * The train job's writer thread (iterationWriter.ts): prepares each iteration it is sent, then commits it when
 * told, in order, with its own database connection, under the job's fence. Between records it indexes the recorded
 * rollouts into LanceDB (syncSteps.ts indexPending: idempotent, under the replay buffer's write lock) once
 * INDEX_BATCH of them are waiting, so that little is left to index when the job ends; closing the thread stops
 * that at the next batch, and the job's own indexing does the rest.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../db";
import { fenceFor, LeaseLost } from "../queue/fence";
import { loadRealDomain } from "../remoteEnv/load";
import { indexPending } from "../replay/syncSteps";
import type { FromWriter, ToWriter, WriterThreadData } from "./iterationWriter";
import { commitIteration, type PreparedIteration, prepareIteration } from "./runStore";

const data = workerData as WriterThreadData;
const fence = fenceFor({ id: data.fence.jobId, leaseToken: data.fence.leaseToken }, data.fence.workerId);
const db = createDb(data.databaseUrl);
// The real environment that answers synthetic steps: built in, or remote (its tasks travel with the episodes, so
// none need preparing); an imported domain has none.
const domain = db.then((d) => loadRealDomain(d, data.config.domain, [], { loggedActions: false }));
let queue: Promise<unknown> = db;

const post = (m: FromWriter) => parentPort?.postMessage(m);

const stopIndexing = new AbortController();
let indexing: Promise<void> | undefined;
let indexAgain = false;
/**
 * Recorded rollouts the thread lets wait before it indexes them, in one LanceDB write. Each write is a new
 * fragment, and fragments are compacted every 16 or so: indexing every iteration (two writes of 256) cost the
 * storing job a tenth of its CPU, measured on the rollouts bench. LanceDB then lags the database by less than this
 * many rollouts while a run goes on; the run's own retrieval reads its in-memory buffer, not LanceDB.
 */
const INDEX_BATCH = 1_024;
/** Rollouts committed since the last indexing pass began. */
let waitingRows = 0;

/** One indexing pass at a time; a record during a pass asks for one more after it. */
function indexSoon() {
  if (indexing) {
    indexAgain = true;
    return;
  }
  indexing = (async () => {
    do {
      indexAgain = false;
      await indexPending(await db, { signal: stopIndexing.signal, batchSize: INDEX_BATCH });
    } while (indexAgain && !stopIndexing.signal.aborted);
  })()
    .catch((error) => {
      if (!stopIndexing.signal.aborted)
        console.error(`indexing a run's rollouts failed: ${(error as Error).message}`);
    })
    .finally(() => {
      indexing = undefined;
    });
}

/**
 * The least time between two checkpoints. A checkpoint is the run's whole state (the policy and the optimizer's
 * moments: 3 MB after 40 shop iterations), rewritten in SQLite; every iteration, that was 1.2 of the rollouts
 * bench's 23 s of CPU. Spaced out, a crash costs at most this much computing again: resuming from an earlier
 * checkpoint discards the iterations recorded after it (runStore.ts discardAfter), and runs are deterministic, so
 * they come back the same. The first iteration of every attempt and the job's last are always checkpoints.
 */
const CHECKPOINT_INTERVAL_MS = 5_000;
let lastCheckpoint = Number.NEGATIVE_INFINITY;

/** Iterations prepared and waiting for their commit. */
const prepared = new Map<number, PreparedIteration>();

/** Runs `work` after everything before it; reports its failure for the iteration. */
function then(iteration: number, work: () => Promise<void>) {
  queue = queue.then(async () => {
    try {
      await work();
    } catch (error) {
      post({
        type: "failed",
        iteration,
        leaseLost: error instanceof LeaseLost,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
}

parentPort?.on("message", (m: ToWriter) => {
  if (m.type === "close") {
    stopIndexing.abort();
    void queue.finally(async () => {
      await indexing;
      await (await db).$disconnect();
      process.exit(0);
    });
  } else if (m.type === "prepare") {
    const { report } = m;
    then(report.iteration, async () => {
      prepared.set(report.iteration, await prepareIteration(data.runId, await domain, report));
      post({ type: "prepared", iteration: report.iteration });
    });
  } else {
    then(m.iteration, async () => {
      const iteration = prepared.get(m.iteration);
      if (!iteration) throw new Error(`iteration ${m.iteration} was not prepared`);
      prepared.delete(m.iteration);
      const checkpoint = m.final || performance.now() - lastCheckpoint >= CHECKPOINT_INTERVAL_MS;
      const progress = await commitIteration(await db, data.runId, data.config, iteration, fence, checkpoint);
      if (checkpoint) lastCheckpoint = performance.now();
      post({ type: "committed", iteration: m.iteration, progress });
      waitingRows += iteration.rows.steps.length;
      if (waitingRows >= INDEX_BATCH) {
        waitingRows = 0;
        indexSoon();
      }
    });
  }
});
