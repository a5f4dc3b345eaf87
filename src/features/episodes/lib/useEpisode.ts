"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/trpc/react";
import type { ExplorerParams } from "./explorerParams";

/**
 * An episode whole, with its steps' retrieved demonstrations and its neighbours in the filtered list. The
 * neighbours are prefetched, so that n and p do not wait on the server either.
 */
export function useEpisode(id: string, filter: ExplorerParams) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const episode = useQuery(trpc.trajectories.get.queryOptions({ id }));
  // Requests are batched: asking for the rest only once the episode is here keeps its first step from waiting on
  // the slower demonstration and list queries.
  const loaded = episode.data !== undefined;
  const demonstrations = useQuery(
    trpc.steps.demonstrations.queryOptions({ trajectoryId: id }, { enabled: loaded }),
  );
  const adjacent = useQuery(trpc.trajectories.adjacent.queryOptions({ id, filter }, { enabled: loaded }));

  const previousId = adjacent.data?.previousId ?? null;
  const nextId = adjacent.data?.nextId ?? null;
  useEffect(() => {
    for (const other of [previousId, nextId]) {
      if (other) void queryClient.prefetchQuery(trpc.trajectories.get.queryOptions({ id: other }));
    }
  }, [previousId, nextId, queryClient, trpc]);

  return { episode, demonstrations, adjacent, previousId, nextId };
}
