"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { ReviewAction } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import type { AnnotationDetail } from "../types";
import type { useItemLock } from "./useItemLock";

/** How a review action is named when the queue says why it did nothing. */
const ACTION_NAMES: Record<ReviewAction, string> = {
  accept: "Accept (a)",
  edit: "Edit (e)",
  reject: "Reject (r)",
  reopen: "Reopen (u)",
};

/** A message under the review header: a plain answer to a key that did nothing, or a refusal from the server. */
export interface Notice {
  tone: "info" | "error";
  text: string;
}

interface Options {
  item: AnnotationDetail | undefined;
  selectedId: string | null;
  canReview: boolean;
  lock: ReturnType<typeof useItemLock>;
}

/**
 * Reviewing the trace on screen: the actions (a, e, r, u), the correction being written, and what the queue says
 * when an action did nothing (no lock yet, nothing to reopen) or the server refused it.
 */
export function useReview({ item, selectedId, canReview, lock }: Options) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [lockNudge, setLockNudge] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a draft and a notice belong to the trace they began on
  useEffect(() => {
    setDraft(null);
    setNotice(null);
    setLockNudge(null);
  }, [selectedId]);
  // Once the lock is ours, "waits for the lock" no longer holds.
  useEffect(() => {
    if (lock.state.kind === "held") setLockNudge(null);
  }, [lock.state.kind]);

  const review = useMutation(
    trpc.annotations.review.mutationOptions({
      onSuccess: () => {
        setDraft(null);
        setNotice(null);
      },
      onError: (error) => {
        if (error.data?.code === "CONFLICT") {
          lock.retake();
          // Someone else has the trace: the lock banner is about to say who and until when; once is enough.
          if (error.data.lock) return setNotice(null);
        }
        setNotice({ tone: "error", text: error.message });
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.annotations.pathKey() }),
    }),
  );

  const act = (action: ReviewAction) => {
    if (!item || !canReview || review.isPending) return;
    // Nothing to ask the server: a pending trace has nothing to reopen, whoever holds it.
    if (action === "reopen" && item.status === "pending")
      return setNotice({
        tone: "info",
        text: "This trace is already pending: there is nothing to reopen. Reopen (u) puts an accepted, edited or rejected trace back in the queue.",
      });
    if (lock.state.kind !== "held") {
      setNotice(null);
      return setLockNudge(ACTION_NAMES[action]);
    }
    if (action === "edit") return setDraft(item.correction ?? item.teacherText);
    review.mutate({ id: item.id, action });
  };
  const save = () => {
    if (!item || !canReview || draft === null) return;
    review.mutate({ id: item.id, action: "edit", correction: draft });
  };
  return { draft, setDraft, notice, lockNudge, busy: review.isPending, act, save };
}
