"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import type { CorrectionDraft } from "./prediction";
import { useLeaveWarning } from "./useLeaveWarning";

/** Long enough not to send every keystroke, short enough that a reload rarely loses a word. */
const AUTOSAVE_MS = 600;

/** Where the draft on screen stands with the server. */
export type DraftStatus =
  | { kind: "none" }
  /** Typed, not yet sent: leaving now would lose it. */
  | { kind: "unsaved" }
  | { kind: "saving" }
  | { kind: "saved"; at: Date }
  | { kind: "error"; message: string };

/**
 * The correction being written for the item on screen. It autosaves to the server (one draft per annotator and
 * item) a moment after each change, comes back when the item is opened again (after a reload too), and the page
 * warns before it is left while a change has not reached the server.
 */
export function useCorrectionDraft(id: string | null, enabled: boolean) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<CorrectionDraft | null>(null);
  const [status, setStatus] = useState<DraftStatus>({ kind: "none" });
  const [restoredAt, setRestoredAt] = useState<Date | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  /** A change typed but not yet sent: sent at once if the annotator moves to another item first. */
  const unsent = useRef<{ id: string; draft: CorrectionDraft } | null>(null);
  const client = useTRPCClient();
  /** The item whose stored draft was restored, or that the annotator began editing before it arrived. */
  const handled = useRef<string | null>(null);
  const stored = useQuery({
    ...trpc.annotations.draft.queryOptions({ id: id ?? "" }),
    enabled: enabled && id !== null,
    staleTime: 0,
  });
  const saveDraft = useMutation(trpc.annotations.saveDraft.mutationOptions());
  const discardDraft = useMutation(trpc.annotations.discardDraft.mutationOptions());

  // biome-ignore lint/correctness/useExhaustiveDependencies: a draft belongs to the item it began on
  useEffect(() => {
    clearTimeout(timer.current);
    handled.current = null;
    setDraft(null);
    setStatus({ kind: "none" });
    setRestoredAt(null);
    return () => {
      const left = unsent.current;
      unsent.current = null;
      if (!left) return;
      remember(left.id, left.draft, new Date());
      void client.annotations.saveDraft.mutate(left).catch(() => {});
    };
  }, [id]);

  // A draft kept on the server opens the editor where it was left: once per visit to the item, and not over an
  // edit begun before it arrived.
  const restored = stored.data;
  useEffect(() => {
    if (!id || !restored || handled.current === id) return;
    handled.current = id;
    setDraft(restored.draft);
    setRestoredAt(restored.updatedAt);
    setStatus({ kind: "saved", at: restored.updatedAt });
  }, [id, restored]);

  useLeaveWarning(status.kind === "unsaved" || status.kind === "saving");

  /** What the server holds for an item, so that coming back to it shows the latest draft at once. */
  function remember(itemId: string, next: CorrectionDraft, at: Date) {
    queryClient.setQueryData(trpc.annotations.draft.queryKey({ id: itemId }), () => ({
      draft: next,
      updatedAt: at,
    }));
  }

  const send = (itemId: string, next: CorrectionDraft) => {
    unsent.current = null;
    setStatus({ kind: "saving" });
    const sending = saveDraft
      .mutateAsync({ id: itemId, draft: next })
      .then((saved) => {
        remember(itemId, next, saved.updatedAt);
        setStatus({ kind: "saved", at: saved.updatedAt });
      })
      .catch((error: Error) => setStatus({ kind: "error", message: error.message }));
    inFlight.current = sending;
  };

  const forget = () => {
    clearTimeout(timer.current);
    unsent.current = null;
    setDraft(null);
    setStatus({ kind: "none" });
    setRestoredAt(null);
    if (id) queryClient.setQueryData(trpc.annotations.draft.queryKey({ id }), null);
  };

  return {
    draft,
    status,
    restoredAt,
    /** Opens the editor on a fresh draft (nothing is saved until something is typed). */
    open: (fresh: CorrectionDraft) => {
      handled.current = id;
      setDraft(fresh);
    },
    change: (next: CorrectionDraft) => {
      if (!id) return;
      setDraft(next);
      setStatus({ kind: "unsaved" });
      unsent.current = { id, draft: next };
      clearTimeout(timer.current);
      timer.current = setTimeout(() => send(id, next), AUTOSAVE_MS);
    },
    /** Waits for a draft already sent, so that it cannot land after the review that ends it. */
    settle: async () => {
      clearTimeout(timer.current);
      await inFlight.current;
    },
    /** The review was saved: the server dropped the draft with it. */
    closeSaved: forget,
    /** The annotator cancelled the edit: the draft goes. */
    discard: () => {
      const itemId = id;
      forget();
      if (itemId) discardDraft.mutate({ id: itemId });
    },
  };
}
