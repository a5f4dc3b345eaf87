/**
 * The recorder's writes on a thread of its own, with its own database connection. libsql runs SQLite in the calling
 * thread: a write that waits for the lock a worker's iteration holds would stall every session's step on the
 * server's event loop; here it stalls only this thread.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { createDb } from "../db";
import { type RecordWriter, type Write, writeBatch } from "./recordWrites";
import { refreshRunFigures } from "./runFigures";

type Body = { kind: "write"; batch: Write[] } | { kind: "figures"; runId: string; versions: number[] };
type Request = Body & { id: number };
type Reply = { id: number; error?: string };

/** The thread's end: one request at a time, in order. */
async function serve(databaseUrl: string) {
  const db = await createDb(databaseUrl);
  let chain: Promise<void> = Promise.resolve();
  parentPort?.on("message", (request: Request) => {
    chain = chain.then(async () => {
      const reply: Reply = { id: request.id };
      try {
        if (request.kind === "write") await writeBatch(db, request.batch);
        else await refreshRunFigures(db, request.runId, request.versions);
      } catch (error) {
        reply.error = (error as Error).message;
      }
      parentPort?.postMessage(reply);
    });
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === "env-server-writer")
  void serve((workerData as { databaseUrl: string }).databaseUrl);

/** The server's end: a RecordWriter whose writes run on the thread. */
export function threadWriter(databaseUrl: string): RecordWriter {
  const worker = new Worker(new URL("./writerThread.boot.mjs", import.meta.url), {
    workerData: { role: "env-server-writer", databaseUrl },
  });
  worker.unref();
  let next = 0;
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let failure: Error | undefined;
  worker.on("message", (reply: Reply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error) waiting?.reject(new Error(reply.error));
    else waiting?.resolve();
    if (pending.size === 0) worker.unref();
  });
  const fail = (error: Error) => {
    failure = new Error(`the recorder's thread stopped: ${error.message}`);
    for (const waiting of pending.values()) waiting.reject(failure);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`exit code ${code}`)));
  const call = (request: Body) =>
    new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  return {
    write: (batch) => call({ kind: "write", batch: [...batch] }),
    refreshFigures: (runId, versions) => call({ kind: "figures", runId, versions: [...versions] }),
    close: async () => {
      await worker.terminate();
    },
  };
}
