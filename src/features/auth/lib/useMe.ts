"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

/** The signed-in person and what their role allows (undefined while loading, null when signed out). */
export function useMe() {
  const trpc = useTRPC();
  return useQuery(trpc.users.me.queryOptions(undefined, { staleTime: 60_000 })).data;
}

/**
 * Whether the signed-in person's role allows `permission` ("run:launch", "annotation:review"), to show only the
 * controls the server would accept (it checks again). False while loading.
 */
export function useCan(permission: string): boolean {
  return Boolean(useMe()?.permissions.includes(permission));
}
