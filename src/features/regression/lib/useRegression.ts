"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/trpc/react";
import type { CaseSource } from "./regressionParams";

/** While a check is queued or running, its progress is polled this often. */
const LIVE_MS = 1_000;

/** The suite of one domain: its checks (polled while one is under way) and its cases across finished versions. */
export function useRegression(domain: string | undefined, source: CaseSource) {
  const trpc = useTRPC();
  const options = useQuery(trpc.regression.options.queryOptions());
  const chosen = domain ?? options.data?.domains[0]?.domain;
  const checks = useQuery({
    ...trpc.regression.checks.queryOptions(chosen ? { domain: chosen } : {}),
    refetchInterval: (query) =>
      query.state.data?.some((c) => c.status === "queued" || c.status === "running") ? LIVE_MS : false,
  });
  const finished = (checks.data ?? []).filter((c) => c.status === "succeeded").length;
  const matrix = useQuery({
    ...trpc.regression.matrix.queryOptions({ domain: chosen ?? "", source }),
    enabled: Boolean(chosen),
  });
  const { refetch } = matrix;
  // A check that finishes brings its column.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refetch when the count of finished checks changes
  useEffect(() => {
    if (chosen) void refetch();
  }, [finished]);
  return { options, domain: chosen, checks, matrix };
}
