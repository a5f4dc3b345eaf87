"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { RunFidelity } from "@/features/flags/components/RunFidelity";
import { OutcomeBadge, SourceBadge } from "@/features/shared/components/Badges";
import { countOf } from "@/features/shared/lib/countOf";
import { formatReward } from "@/features/shared/lib/formatReward";
import { useTRPC } from "@/trpc/react";
import styles from "../episodes.module.css";
import { episodeHref, filterQuery, readExplorerParams } from "../lib/explorerParams";
import { ExplorerFilters } from "./ExplorerFilters";

const PAGE_SIZE = 50;

/** The episode explorer. Filters live in the URL so that a filtered list can be shared and survives a reload. */
export function TrajectoryList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const query = params.toString();
  const filter = useMemo(() => readExplorerParams(new URLSearchParams(query)), [query]);
  const carried = useMemo(() => filterQuery(new URLSearchParams(query)), [query]);
  const page = Math.max(0, Number(params.get("page") ?? 0) || 0);

  const list = useQuery(trpc.trajectories.list.queryOptions({ ...filter, page, pageSize: PAGE_SIZE }));

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(query);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === "run") next.delete("iteration");
    if (key !== "page") next.delete("page");
    const search = next.toString();
    router.replace(search ? `${pathname}?${search}` : pathname);
  };

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div>
      <ExplorerFilters
        filter={filter}
        setParam={setParam}
        count={list.isLoading ? "loading…" : countOf(total, "trajectory", "trajectories")}
      />
      {filter.runId ? <RunFidelity runId={filter.runId} iteration={filter.iteration} /> : null}
      {list.error ? <div className="error">{list.error.message}</div> : null}
      <table className="grid" aria-label="Trajectories">
        <thead>
          <tr>
            <th>Task instruction</th>
            <th>Domain</th>
            <th>Source</th>
            <th>Policy</th>
            <th>Run</th>
            <th>Steps</th>
            <th>Return</th>
            <th>Outcome</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>
                <Link href={episodeHref(t.id, carried)}>{t.task.instruction}</Link>
                <Link
                  className={styles.taskLine}
                  href={`${pathname}?task=${encodeURIComponent(t.task.id)}`}
                  title="All episodes of this task"
                >
                  {t.task.id}
                </Link>
              </td>
              <td>{t.domain}</td>
              <td>
                <SourceBadge source={t.source} />
              </td>
              <td className="mono">{t.policy}</td>
              <td className="hint" data-testid="trajectory-run">
                {t.runId ? (
                  <>
                    <Link href={`/runs/${t.runId}`}>{t.run?.name ?? t.runId}</Link>
                    <span style={{ whiteSpace: "nowrap" }}>
                      {` · iter ${t.iteration ?? "–"}${t.group !== null ? ` · #${t.group}` : ""}`}
                    </span>
                  </>
                ) : (
                  "–"
                )}
              </td>
              <td>
                {t.length}
                {t.flaggedSteps > 0 ? (
                  <span className="badge bad" style={{ marginLeft: 6 }} title="steps flagged as hallucinated">
                    ⚑ {t.flaggedSteps}
                  </span>
                ) : null}
              </td>
              <td>{formatReward(t.totalReward)}</td>
              <td>
                <OutcomeBadge success={t.success} />
              </td>
            </tr>
          ))}
          {list.data && list.data.items.length === 0 ? (
            <tr>
              <td colSpan={8} className="hint">
                No trajectories match these filters.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <div className="pager">
        <button type="button" disabled={page === 0} onClick={() => setParam("page", String(page - 1))}>
          ← Prev
        </button>
        <span className="hint">
          page {page + 1} of {pages}
        </span>
        <button type="button" disabled={page + 1 >= pages} onClick={() => setParam("page", String(page + 1))}>
          Next →
        </button>
      </div>
    </div>
  );
}
