"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";
import type { QueueItem } from "../types";

/**
 * The trace on screen. It is kept: the first trace nobody else has open on arrival, and after a review took the
 * current one out of the list, the one that took its place. Its neighbours are prefetched, so that moving through
 * the queue does not wait on the server.
 */
export function useQueueSelection(items: QueueItem[], loaded: boolean, me: string | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const index = items.findIndex((i) => i.id === selectedId);

  useEffect(() => {
    if (!loaded || !me) return;
    if (index >= 0) {
      lastIndex.current = index;
      return;
    }
    if (items.length === 0) return setSelectedId(null);
    if (selectedId === null) {
      const now = Date.now();
      const free = items.find(
        (i) => !i.lockedBy || i.lockedBy === me || (i.lockExpiresAt?.getTime() ?? 0) <= now,
      );
      return setSelectedId((free ?? items[0]!).id);
    }
    setSelectedId(items[Math.min(lastIndex.current, items.length - 1)]!.id);
  }, [loaded, items, index, selectedId, me]);

  useEffect(() => {
    for (const other of [items[index + 1], items[index - 1]]) {
      if (other) void queryClient.prefetchQuery(trpc.annotations.get.queryOptions({ id: other.id }));
    }
  }, [items, index, queryClient, trpc]);

  const move = (by: number) => {
    if (items.length === 0) return;
    const next = items[Math.min(Math.max(0, Math.max(index, 0) + by), items.length - 1)];
    if (next) setSelectedId(next.id);
  };
  return { selectedId, setSelectedId, index, move };
}
