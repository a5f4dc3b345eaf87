"use client";

import { useQuery } from "@tanstack/react-query";
import { isActiveStatus } from "@/shared/enums";
import { isNotFound, useTRPC } from "@/trpc/react";

/** One run, live while it is queued or running; never asked for again once the server said there is no such run. */
export function useRun(id: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.runs.get.queryOptions({ id }),
    refetchInterval: (query) =>
      isNotFound(query.state.error) || (query.state.data && !isActiveStatus(query.state.data.status))
        ? false
        : 1_000,
  });
}
