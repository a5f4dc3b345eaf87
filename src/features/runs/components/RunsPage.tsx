"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Allowed } from "@/features/auth/components/Allowed";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import styles from "../runs.module.css";
import { applyQuery, filterOptions, runsCount } from "../runsQuery";
import type { RunListItem } from "../types";
import { useRunsQuery } from "../useRunsQuery";
import { RunsFilters } from "./RunsFilters";
import { RunsTable } from "./RunsTable";

/** Final success as the list shows it: real, or an imported domain's proxy. */
const finalSuccess = (r: RunListItem) => r.finalRealSuccess ?? r.proxy?.final?.syntheticSuccess ?? null;

export function RunsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const launched = useSearchParams().get("launched");
  const [query, setQuery] = useRunsQuery();
  const [selected, setSelected] = useState<string[]>([]);
  const runs = useQuery({
    ...trpc.runs.list.queryOptions({ limit: 500 }),
    // Live while anything is queued or running; slow otherwise.
    refetchInterval: (q) => (q.state.data?.some((r) => isActiveStatus(r.status)) ? 1_000 : 5_000),
  });
  const all = runs.data?.map((r) => ({ ...r, finalSuccess: finalSuccess(r) }));
  const shown = all ? applyQuery(all, query) : undefined;
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <div className={styles.page}>
      <div className={styles.toolbar}>
        <Allowed permission="run:launch">
          <Link href="/runs/new" className="button" style={{ background: "var(--accent)", color: "#fff" }}>
            New run
          </Link>
        </Allowed>
        <button
          type="button"
          disabled={selected.length === 0}
          onClick={() => router.push(`/runs/compare?ids=${selected.map(encodeURIComponent).join(",")}`)}
        >
          Compare selected{selected.length > 0 ? ` (${selected.length})` : ""}
        </button>
        <span className={styles.spacer} />
        <span className="hint" data-testid="runs-count">
          {all && shown ? runsCount(shown.length, all.length) : ""}
          {all?.some((r) => isActiveStatus(r.status)) ? " · live" : ""}
        </span>
      </div>
      <RunsFilters query={query} options={filterOptions(all ?? [])} onChange={setQuery} />
      {runs.error ? <div className="error">{runs.error.message}</div> : null}
      <RunsTable
        runs={shown}
        filteredOut={(all?.length ?? 0) > 0}
        selected={selected}
        launched={launched}
        onToggle={toggle}
      />
    </div>
  );
}
