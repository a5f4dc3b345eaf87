"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

/** The newest jobs, polled while the page is open so their status is live, and the way to cancel one. */
export function useJobs() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const jobs = useQuery({ ...trpc.jobs.list.queryOptions({ limit: 50 }), refetchInterval: 1_000 });
  const cancel = useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() }),
    }),
  );
  return { jobs, cancel: (id: string) => cancel.mutate({ id }) };
}
