"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { useTRPC } from "@/trpc/react";

/** Lists and counts refresh on their own: the teacher job adds traces, other annotators take and review them. */
const REFRESH_MS = 10_000;

/** The queue under its filters: the traces, the counts of each status tab, and what an export would hold. */
export function useQueueQueries(filter: AnnotationFilter) {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.annotations.list.queryOptions(filter), refetchInterval: REFRESH_MS });
  const counts = useQuery({
    ...trpc.annotations.counts.queryOptions({
      ...(filter.domain ? { domain: filter.domain } : {}),
      ...(filter.teacher ? { teacher: filter.teacher } : {}),
    }),
    refetchInterval: REFRESH_MS,
  });
  const exportCount = useQuery(trpc.annotations.exportCount.queryOptions(filter));
  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  return { list, counts, exportCount, items };
}

/** The selected trace in full; undefined while another one's answer is still on screen. */
export function useQueueItem(selectedId: string | null) {
  const trpc = useTRPC();
  const detail = useQuery({
    ...trpc.annotations.get.queryOptions({ id: selectedId ?? "" }),
    enabled: selectedId !== null,
  });
  const item = detail.data && detail.data.id === selectedId ? detail.data : undefined;
  return { item, error: detail.error };
}
