"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { ReviewAction } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import type { AnnotationDetail } from "../types";
import { draftOf, parseReward } from "./prediction";
import { useCorrectionDraft } from "./useCorrectionDraft";
import type { useItemLock } from "./useItemLock";

/** How a review action is named when the queue says why it did nothing. */
const ACTION_NAMES: Record<ReviewAction, string> = {
  accept: "Accept (a)",
  edit: "Edit (e)",
  reject: "Reject (r)",
  reopen: "Reopen",
};

const UNDONE: Record<string, string> = { accept: "accept", edit: "correction", reject: "reject" };

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
  /** An undo put this item back: the queue shows it. */
  onUndone: (id: string) => void;
}

/**
 * Reviewing the item on screen: the actions (a, e, r, and u to undo the last of them), the correction being
 * written (autosaved as a draft), and what the queue says when an action did nothing or the server refused it.
 */
export function useReview({ item, selectedId, canReview, lock, onUndone }: Options) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const drafts = useCorrectionDraft(selectedId, canReview);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [lockNudge, setLockNudge] = useState<string | null>(null);
  /** The item an undo just brought back: its notice ("Undid your reject") is about it, so it stays. */
  const noticeFor = useRef<string | null>(null);
  // A notice belongs to the item it was said on.
  useEffect(() => {
    if (noticeFor.current !== selectedId) setNotice(null);
    noticeFor.current = null;
    setLockNudge(null);
  }, [selectedId]);
  // Once the lock is ours, "waits for the lock" no longer holds.
  useEffect(() => {
    if (lock.state.kind === "held") setLockNudge(null);
  }, [lock.state.kind]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.annotations.pathKey() });

  const review = useMutation(
    trpc.annotations.review.mutationOptions({
      onSuccess: () => {
        drafts.closeSaved();
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
      onSettled: refresh,
    }),
  );
  const undo = useMutation(
    trpc.annotations.undo.mutationOptions({
      onSuccess: (result) => {
        noticeFor.current = result.annotation.id;
        onUndone(result.annotation.id);
        setNotice({
          tone: "info",
          text: `Undid your ${UNDONE[result.undone] ?? result.undone}: the item is ${result.annotation.status} again.`,
        });
      },
      onError: (error) =>
        setNotice({ tone: error.data?.code === "BAD_REQUEST" ? "info" : "error", text: error.message }),
      onSettled: refresh,
    }),
  );

  const act = (action: ReviewAction) => {
    if (!item || !canReview || review.isPending) return;
    // Nothing to ask the server: a pending trace has nothing to reopen, whoever holds it.
    if (action === "reopen" && item.status === "pending")
      return setNotice({ tone: "info", text: "This trace is already pending: there is nothing to reopen." });
    if (lock.state.kind !== "held") {
      setNotice(null);
      return setLockNudge(ACTION_NAMES[action]);
    }
    if (action === "edit") return drafts.open(draftOf(item));
    review.mutate({ id: item.id, action });
  };
  const save = async () => {
    const draft = drafts.draft;
    if (!item || !canReview || draft === null) return;
    const reward = parseReward(draft.reward);
    if (!reward.ok) return setNotice({ tone: "error", text: reward.message });
    await drafts.settle();
    review.mutate({
      id: item.id,
      action: "edit",
      correction: {
        reasoning: draft.reasoning,
        nextState: draft.nextState,
        reward: reward.value,
        done: draft.done,
      },
    });
  };
  return {
    draft: drafts.draft,
    draftStatus: drafts.status,
    restoredAt: drafts.restoredAt,
    setDraft: drafts.change,
    cancel: drafts.discard,
    notice,
    lockNudge,
    busy: review.isPending || undo.isPending,
    act,
    save,
    undo: () => {
      if (canReview && !undo.isPending) undo.mutate();
    },
  };
}
