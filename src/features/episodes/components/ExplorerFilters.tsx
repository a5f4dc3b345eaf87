"use client";

import { useQuery } from "@tanstack/react-query";
import { TRAJECTORY_SOURCES } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import styles from "../episodes.module.css";
import type { ExplorerParams } from "../lib/explorerParams";
import { SearchBox } from "./SearchBox";

interface Props {
  filter: ExplorerParams;
  /** Sets one URL parameter ("" removes it). */
  setParam: (key: string, value: string) => void;
  count: string;
}

/** The explorer's filter bar; every control writes its URL parameter, so what is shown is always linkable. */
export function ExplorerFilters({ filter, setParam, count }: Props) {
  const trpc = useTRPC();
  const facets = useQuery(trpc.trajectories.facets.queryOptions());
  const runs = useQuery(trpc.trajectories.runOptions.queryOptions());
  const domains = [...new Set(facets.data?.map((f) => f.domain) ?? [])].sort();
  const run = runs.data?.find((r) => r.id === filter.runId);

  return (
    <>
      <div className="filters">
        <label className="field">
          Run
          <select
            aria-label="Run"
            value={filter.runId ?? ""}
            onChange={(e) => setParam("run", e.target.value)}
          >
            <option value="">all runs and offline data</option>
            {filter.runId && runs.data && !run ? <option value={filter.runId}>unknown run</option> : null}
            {(runs.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} ({r.domain})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Iteration
          <select
            aria-label="Iteration"
            value={filter.iteration ?? ""}
            disabled={!filter.runId && filter.iteration === undefined}
            onChange={(e) => setParam("iteration", e.target.value)}
          >
            <option value="">all</option>
            {filter.iteration !== undefined &&
            !run?.iterations.some((i) => i.iteration === filter.iteration) ? (
              <option value={filter.iteration}>{filter.iteration}</option>
            ) : null}
            {(run?.iterations ?? []).map((i) => (
              <option key={i.iteration} value={i.iteration}>
                {i.iteration} ({i.episodes})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Domain
          <select
            aria-label="Domain"
            value={filter.domain ?? ""}
            onChange={(e) => setParam("domain", e.target.value)}
          >
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
            value={filter.source ?? ""}
            onChange={(e) => setParam("source", e.target.value)}
          >
            <option value="">all sources</option>
            {TRAJECTORY_SOURCES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Outcome
          <select
            aria-label="Outcome"
            value={filter.success === undefined ? "" : String(filter.success)}
            onChange={(e) => setParam("success", e.target.value)}
          >
            <option value="">any</option>
            <option value="true">success</option>
            <option value="false">failure</option>
          </select>
        </label>
        <SearchBox value={filter.search ?? ""} onSearch={(q) => setParam("q", q)} />
        <label className={styles.checkbox}>
          <input
            type="checkbox"
            aria-label="Flagged only"
            checked={filter.flagged === true}
            onChange={(e) => setParam("flagged", e.target.checked ? "true" : "")}
          />
          with flagged steps
        </label>
        <span className="hint" data-testid="trajectory-count">
          {count}
        </span>
      </div>
      {filter.taskId ? (
        <div className="row" style={{ marginBottom: 12 }}>
          <span className={styles.chip} data-testid="task-filter">
            task <span className="mono">{filter.taskId}</span>
            <button type="button" aria-label="Clear task filter" onClick={() => setParam("task", "")}>
              ×
            </button>
          </span>
        </div>
      ) : null}
    </>
  );
}
