"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";
import type { QueueItem } from "../types";

/** The URL parameter that names the item on screen, so a reload (or a shared link) opens the same one. */
export const ITEM_PARAM = "item";

function itemInUrl(): string | null {
  if (typeof window === "undefined") return null;
  return new URLSearchParams(window.location.search).get(ITEM_PARAM);
}

/** Writes the item into the address without a navigation: the page stays as it is, a reload comes back to it. */
function writeItemToUrl(id: string | null): void {
  const url = new URL(window.location.href);
  if ((url.searchParams.get(ITEM_PARAM) ?? null) === id) return;
  if (id) url.searchParams.set(ITEM_PARAM, id);
  else url.searchParams.delete(ITEM_PARAM);
  window.history.replaceState(window.history.state, "", url);
}

/**
 * The item on screen, named in the URL. It is kept: the one the URL names on arrival, else the first one nobody
 * else has open; after a review took the current one out of the list, the one that took its place; after an undo,
 * the item it put back, once the list has it again. Its neighbours are prefetched, so that moving through the
 * queue does not wait on the server.
 */
export function useQueueSelection(items: QueueItem[], loaded: boolean, me: string | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useState<string | null>(itemInUrl);
  const lastIndex = useRef(0);
  /** An item chosen before the list holds it (an undo): kept until the list has been fetched again. */
  const pinned = useRef<{ id: string; items: QueueItem[] } | null>(null);
  const index = items.findIndex((i) => i.id === selectedId);

  useEffect(() => {
    if (!loaded || !me) return;
    if (index >= 0) {
      lastIndex.current = index;
      pinned.current = null;
      return;
    }
    if (pinned.current?.id === selectedId && pinned.current.items === items) return;
    pinned.current = null;
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
    if (loaded) writeItemToUrl(selectedId);
  }, [loaded, selectedId]);

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
  /** Shows an item the list may not hold yet (it will once it is fetched again). */
  const reveal = (id: string) => {
    pinned.current = { id, items };
    setSelectedId(id);
  };
  return { selectedId, setSelectedId, index, move, reveal };
}
