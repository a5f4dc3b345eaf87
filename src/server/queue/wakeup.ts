import type pg from "pg";
import { JOBS_CHANNEL } from "./queue";

/**
 * Prompt pickup on PostgreSQL: idle worker loops LISTEN on the jobs channel, which enqueue (and a job handed back)
 * NOTIFYs, so a new job is claimed within milliseconds instead of at the next poll. The poll stays, as the fallback
 * that finds what no notification announces: a retry whose backoff ran out, a dead worker's expired lease, and
 * anything enqueued while the listening connection was down. One connection per process and database, shared by
 * its loops.
 */
export interface Wakeup {
  /**
   * Resolves after `ms`, when the signal aborts, or at the first notification, whichever comes first; at once if a
   * notification arrived since the previous wait began (while the loop was busy claiming).
   */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

interface Listener {
  client: pg.Client | null;
  connecting: Promise<void> | null;
  retryAt: number;
  subscribers: Set<Subscriber>;
}

interface Subscriber {
  pending: boolean;
  wake: (() => void) | null;
}

const RECONNECT_MS = 5_000;
const listeners = new Map<string, Listener>();

/** A wakeup on `url`'s jobs channel; close it when the loop ends (the last close ends the connection). */
export function listenForJobs(url: string): Wakeup {
  let listener = listeners.get(url);
  if (!listener) {
    listener = { client: null, connecting: null, retryAt: 0, subscribers: new Set() };
    listeners.set(url, listener);
  }
  const own = listener;
  const me: Subscriber = { pending: false, wake: null };
  own.subscribers.add(me);
  void connect(url, own);
  return {
    async wait(ms, signal) {
      if (!own.client) void connect(url, own);
      if (me.pending || signal?.aborted) {
        me.pending = false;
        return;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          me.wake = null;
          me.pending = false;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener("abort", done, { once: true });
        me.wake = done;
      });
    },
    async close() {
      own.subscribers.delete(me);
      me.wake?.();
      if (own.subscribers.size > 0) return;
      listeners.delete(url);
      await own.connecting?.catch(() => {});
      const client = own.client;
      own.client = null;
      await client?.end().catch(() => {});
    },
  };
}

function connect(url: string, listener: Listener): Promise<void> {
  if (listener.client || listener.connecting || Date.now() < listener.retryAt) return Promise.resolve();
  listener.connecting = (async () => {
    const { default: Pg } = await import("pg");
    const client = new Pg.Client({ connectionString: url });
    const lost = () => {
      if (listener.client === client) listener.client = null;
      listener.retryAt = Date.now() + RECONNECT_MS;
      void client.end().catch(() => {});
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", () => {
      for (const s of listener.subscribers) {
        s.pending = true;
        s.wake?.();
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
      if (listener.subscribers.size === 0) {
        await client.end();
        return;
      }
      listener.client = client;
    } catch {
      // Polling goes on; a later wait tries again.
      lost();
    }
  })().finally(() => {
    listener.connecting = null;
  });
  return listener.connecting;
}
