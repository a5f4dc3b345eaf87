"use client";

import { TRPCClientError } from "@trpc/client";
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/trpc/react";

/** Well inside the server's 5-minute lock: a tab left open keeps its trace, a closed one frees it soon after. */
const RENEW_MS = 60_000;
/** Someone else's trace is tried again this often, so it becomes ours once they move on. */
const RETRY_MS = 15_000;

export type LockState =
  | { kind: "none" }
  | { kind: "taking" }
  | { kind: "held"; until: Date }
  /** Someone else has it: who and until when, where the server said (the message otherwise). */
  | { kind: "locked"; holder: string | null; until: Date | null; message: string }
  | { kind: "error"; message: string };

/**
 * Holds the lock of the trace on screen while it is open: takes it on arrival, renews it, releases it on leaving.
 * Lock calls run one after another (a release must never overtake the take that follows it), and only the latest
 * item's answers are kept.
 */
export function useItemLock(
  id: string | null,
  author: string | null,
): { state: LockState; retake: () => void } {
  const client = useTRPCClient();
  const [state, setState] = useState<LockState>({ kind: "none" });
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt forces a new take on request
  useEffect(() => {
    if (!id || !author) {
      setState({ kind: "none" });
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const enqueue = (work: () => Promise<unknown>) => {
      chain.current = chain.current.then(work, work).catch(() => {});
    };
    const take = () =>
      enqueue(async () => {
        if (!live) return;
        try {
          const held = await client.annotations.lock.mutate({ id });
          if (!live) return;
          setState({ kind: "held", until: held.lockExpiresAt });
          timer = setTimeout(take, RENEW_MS);
        } catch (error) {
          if (!live) return;
          const message = error instanceof Error ? error.message : String(error);
          setState(lockStateOfError(error, message));
          timer = setTimeout(take, RETRY_MS);
        }
      });
    // Closing the tab or leaving the site unmounts nothing, so the cleanup below would never run: the page's own
    // last request frees the trace instead of leaving it locked for five minutes.
    const releaseOnLeave = () => releaseWhileLeaving(id);
    window.addEventListener("pagehide", releaseOnLeave);
    setState({ kind: "taking" });
    take();
    return () => {
      live = false;
      clearTimeout(timer);
      window.removeEventListener("pagehide", releaseOnLeave);
      enqueue(() => client.annotations.release.mutate({ id }));
    };
  }, [id, author, client, attempt]);

  return { state, retake: () => setAttempt((n) => n + 1) };
}

/** A refused take: someone else's lock (with who and until when) or another failure. */
export function lockStateOfError(error: unknown, message: string): LockState {
  if (!(error instanceof TRPCClientError) || error.data?.code !== "CONFLICT")
    return { kind: "error", message };
  const lock = (error.data as { lock?: { holder: string; until: string } | null }).lock;
  return {
    kind: "locked",
    holder: lock?.holder ?? null,
    until: lock ? new Date(lock.until) : null,
    message,
  };
}

/**
 * A keepalive request outlives the page that sends it, unlike the tRPC client's. The body is what the client would
 * send for this one mutation: the input under `json`, as superjson writes plain strings.
 */
function releaseWhileLeaving(id: string): void {
  void fetch("/api/trpc/annotations.release", {
    method: "POST",
    keepalive: true,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ json: { id } }),
  }).catch(() => {});
}
