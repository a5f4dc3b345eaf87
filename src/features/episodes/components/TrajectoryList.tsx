"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTRPC } from "@/trpc/react";
import { OutcomeBadge, SourceBadge } from "./Badges";

const SOURCES = ["offline", "synthetic", "real"] as const;
type Source = (typeof SOURCES)[number];

function isSource(value: string | null): value is Source {
  return value !== null && (SOURCES as readonly string[]).includes(value);
}

/** Filters live in the URL so that a filtered list can be shared and survives a reload. */
export function TrajectoryList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const domain = params.get("domain") ?? "";
  const sourceParam = params.get("source");
  const source = isSource(sourceParam) ? sourceParam : undefined;
  const search = params.get("q") ?? "";
  const page = Math.max(0, Number(params.get("page") ?? 0) || 0);

  const facets = useQuery(trpc.trajectories.facets.queryOptions());
  const list = useQuery(
    trpc.trajectories.list.queryOptions({
      ...(domain ? { domain } : {}),
      ...(source ? { source } : {}),
      ...(search ? { search } : {}),
      page,
      pageSize: 50,
    }),
  );

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    router.replace(`${pathname}?${next.toString()}`);
  };

  const domains = [...new Set(facets.data?.map((f) => f.domain) ?? [])].sort();
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / 50));

  return (
    <div>
      <div className="filters">
        <label className="field">
          Domain
          <select aria-label="Domain" value={domain} onChange={(e) => setParam("domain", e.target.value)}>
            <option value="">all domains</option>
            {domains.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Source
          <select
            aria-label="Source"
            value={source ?? ""}
            onChange={(e) => setParam("source", e.target.value)}
          >
            <option value="">all sources</option>
            {SOURCES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          Instruction contains
          <input
            type="text"
            aria-label="Search instructions"
            defaultValue={search}
            placeholder="e.g. shampoo"
            onKeyDown={(e) => {
              if (e.key === "Enter") setParam("q", e.currentTarget.value.trim());
            }}
          />
        </label>
        <span className="hint" data-testid="trajectory-count">
          {list.isLoading ? "loading…" : `${total} trajectories`}
        </span>
      </div>
      {list.error ? <div className="error">{list.error.message}</div> : null}
      <table className="grid" aria-label="Trajectories">
        <thead>
          <tr>
            <th>Task instruction</th>
            <th>Domain</th>
            <th>Source</th>
            <th>Policy</th>
            <th>Steps</th>
            <th>Return</th>
            <th>Outcome</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>
                <Link href={`/trajectories/${t.id}`}>{t.task.instruction}</Link>
              </td>
              <td>{t.domain}</td>
              <td>
                <SourceBadge source={t.source} />
              </td>
              <td className="mono">{t.policy}</td>
              <td>{t.length}</td>
              <td>{t.totalReward.toFixed(2)}</td>
              <td>
                <OutcomeBadge success={t.success} />
              </td>
            </tr>
          ))}
          {list.data && list.data.items.length === 0 ? (
            <tr>
              <td colSpan={7} className="hint">
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
