"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTRPC } from "@/trpc/react";
import type { QueueItem } from "../types";

/**
 * Several items chosen at once (s, or the row's box) and what can be done to them together: accept, reject (each
 * as its own review, skipping what someone else holds) and, for those who assign work, give them to someone.
 */
export function useBulkActions(items: QueueItem[]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<{ tone: "info" | "error"; text: string } | null>(null);
  // Only what the list still shows counts: a reviewed item that left the tab is no longer selected.
  const selected = useMemo(() => items.filter((i) => checked.has(i.id)).map((i) => i.id), [items, checked]);
  const done = () => {
    setChecked(new Set());
    return queryClient.invalidateQueries({ queryKey: trpc.annotations.pathKey() });
  };
  const onError = (error: { message: string }) => setMessage({ tone: "error", text: error.message });

  const review = useMutation(
    trpc.annotations.bulkReview.mutationOptions({
      onSuccess: (result, input) => {
        const verb = input.action === "accept" ? "Accepted" : "Rejected";
        const skipped = result.skipped.length
          ? `; ${result.skipped.length} skipped (${result.skipped.map((s) => s.reason).join("; ")})`
          : "";
        setMessage({
          tone: "info",
          text: `${verb} ${result.done.length} item${result.done.length === 1 ? "" : "s"}${skipped}.`,
        });
        return done();
      },
      onError,
    }),
  );
  const reassign = useMutation(
    trpc.annotations.reassign.mutationOptions({
      onSuccess: (result, input) => {
        setMessage({
          tone: "info",
          text: `Assigned ${result.updated} item${result.updated === 1 ? "" : "s"} to ${input.annotators.join(" and ") || "nobody"}.`,
        });
        return done();
      },
      onError,
    }),
  );

  const toggle = (id: string) =>
    setChecked((now) => {
      const next = new Set(now);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return {
    selected,
    isChecked: (id: string) => checked.has(id),
    toggle,
    clear: () => setChecked(new Set()),
    message,
    busy: review.isPending || reassign.isPending,
    accept: () => selected.length && review.mutate({ ids: selected, action: "accept" }),
    reject: () => selected.length && review.mutate({ ids: selected, action: "reject" }),
    assignTo: (annotator: string) =>
      selected.length && reassign.mutate({ ids: selected, annotators: annotator ? [annotator] : [] }),
  };
}
