import { Worker } from "node:worker_threads";

interface Thread<Res> {
  worker: Worker;
  pending: Map<number, { resolve: (r: Res) => void; reject: (e: Error) => void }>;
}

/** What a thread answers a request with: its result, or the error it threw. */
export interface ThreadReply<Res> {
  id: number;
  result?: Res;
  error?: string;
}

/**
 * Worker threads that answer requests one message each (`{ id, ...request }` in, `ThreadReply` out): each
 * request goes to the thread with the fewest in hand, a thread's error or exit fails what it held and every later
 * request, and idle threads never keep the process alive. The experience model's prediction threads and the
 * rollout threads are two uses.
 */
export class RequestThreads<Req extends object, Res> {
  private readonly threads: Thread<Res>[];
  private nextId = 0;
  private failure: Error | undefined;

  constructor(
    /** The thread's bootstrap module (a plain .mjs that loads the TypeScript thread). */
    entry: URL,
    workerData: unknown,
    count: number,
    /** Names the threads in errors: "rollout thread", "experience model thread". */
    private readonly what: string,
  ) {
    if (!(count >= 1)) throw new Error(`${what}s: at least one thread is needed, got ${count}`);
    this.threads = Array.from({ length: count }, () => this.start(entry, workerData));
  }

  private start(entry: URL, workerData: unknown): Thread<Res> {
    const worker = new Worker(entry, { workerData });
    const thread: Thread<Res> = { worker, pending: new Map() };
    worker.on("message", (m: ThreadReply<Res>) => {
      const waiting = thread.pending.get(m.id);
      if (!waiting) return;
      thread.pending.delete(m.id);
      if (m.result !== undefined) waiting.resolve(m.result);
      else waiting.reject(new Error(`${this.what}: ${m.error ?? "no answer"}`));
      if (thread.pending.size === 0) worker.unref();
    });
    const fail = (error: Error) => {
      this.failure ??= new Error(`${this.what} stopped: ${error.message}`);
      for (const waiting of thread.pending.values()) waiting.reject(this.failure);
      thread.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (thread.pending.size > 0) fail(new Error(`it exited with code ${code}`));
    });
    worker.unref();
    return thread;
  }

  /** Whether some thread holds fewer than `perThread` requests (and none has failed). */
  hasRoom(perThread: number): boolean {
    return this.failure === undefined && this.threads.some((t) => t.pending.size < perThread);
  }

  request(request: Req): Promise<Res> {
    if (this.failure) return Promise.reject(this.failure);
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.ref();
      thread.worker.postMessage({ ...request, id });
    });
  }

  /** A message every thread gets, in order with the requests (no answer). */
  broadcast(message: unknown): void {
    for (const t of this.threads) t.worker.postMessage(message);
  }

  get size(): number {
    return this.threads.length;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}

/**
 * The thread side: answers each request message with `answer`, or with the error it threw; a broadcast (a message
 * without an id) goes to `other`, in order with the requests.
 */
export function answerRequests<Req, Res>(
  port: { on(event: "message", listener: (m: unknown) => void): void; postMessage(m: unknown): void },
  answer: (request: Req) => Promise<Res>,
  other?: (message: unknown) => void,
): void {
  port.on("message", async (raw) => {
    const m = raw as Req & { id?: unknown };
    if (typeof m.id !== "number") {
      other?.(raw);
      return;
    }
    try {
      port.postMessage({ id: m.id, result: await answer(m) } satisfies ThreadReply<Res>);
    } catch (error) {
      port.postMessage({
        id: m.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies ThreadReply<Res>);
    }
  });
}
