"use client";

import { useQuery } from "@tanstack/react-query";
import { hasRealEnvironment } from "@/features/domains/lib/domainKind";
import { useDomainKind } from "@/features/domains/lib/useDomainKind";
import type { FlaggedFilter } from "@/shared/flaggedFilter";
import { useTRPC } from "@/trpc/react";

export const PAGE_SIZE = 50;
/** Without a run filter, the figures of this many of the newest runs are shown. */
const RUNS_SHOWN = 3;

/** One page of the flagged steps under the filters, with what the filter menus offer and whose figures to show. */
export function useFlaggedSteps(filter: FlaggedFilter, page: number) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.trajectories.runOptions.queryOptions());
  const facets = useQuery(trpc.trajectories.facets.queryOptions());
  const list = useQuery(trpc.steps.flagged.queryOptions({ ...filter, page, pageSize: PAGE_SIZE }));
  const { kindOf } = useDomainKind();

  const domains = [...new Set(facets.data?.map((f) => f.domain) ?? [])].sort();
  // A run in an imported domain has no real environment, so no fidelity to show: its steps have no real answer.
  // A built-in or remote domain has one.
  const runsWithEpisodes = (runs.data ?? []).filter(
    (r) => r.iterations.length > 0 && hasRealEnvironment(kindOf(r.domain)),
  );
  const shownRuns = filter.runId ? [filter.runId] : runsWithEpisodes.slice(0, RUNS_SHOWN).map((r) => r.id);
  const total = list.data?.total ?? 0;
  return {
    runs: runs.data ?? [],
    domains,
    authors: list.data?.authors,
    shownRuns,
    list,
    total,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
  };
}
