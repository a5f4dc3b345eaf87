"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { queryOf, queryString, type RunsQuery } from "./runsQuery";

/**
 * The runs list's search, filters and sort: held here and mirrored into the URL (so a shared link shows the same
 * list). The URL is written after a render, so a second change made before the first one's navigation lands
 * would read a stale address; holding the query here keeps both. An address this hook did not write (a link,
 * back/forward) is taken over.
 */
export function useRunsQuery(): [RunsQuery, (patch: Partial<RunsQuery>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const address = params.toString();
  const [query, setState] = useState<RunsQuery>(() => queryOf(params));
  const written = useRef(new Set<string>([address]));
  // The latest query, even before React re-renders with it.
  const latest = useRef(query);
  latest.current = query;

  useEffect(() => {
    if (written.current.has(address)) return;
    written.current = new Set([address]);
    setState(queryOf(new URLSearchParams(address)));
  }, [address]);

  const update = (patch: Partial<RunsQuery>) => {
    const next = { ...latest.current, ...patch };
    latest.current = next;
    setState(next);
    const q = queryString(next, new URLSearchParams(address));
    written.current.add(q);
    router.replace(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };
  return [query, update];
}
