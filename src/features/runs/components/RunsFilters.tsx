"use client";

import { methodLabelOf } from "@/core/train/methods";
import { RUN_STATUSES } from "@/shared/enums";
import styles from "../runs.module.css";
import { isFiltered, RUN_SORTS, type RunsQuery, SORT_LABELS } from "../runsQuery";

interface Props {
  query: RunsQuery;
  options: { method: string[]; domain: string[]; algorithm: string[]; tag: string[] };
  onChange: (patch: Partial<RunsQuery>) => void;
}

function Choice({
  label,
  value,
  values,
  show = (v) => v,
  onChange,
}: {
  label: string;
  value: string;
  values: readonly string[];
  show?: (v: string) => string;
  onChange: (v: string) => void;
}) {
  return (
    <label className={styles.control}>
      {label}
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {show(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Search, filters and sort of the runs list; the page keeps them in the URL. */
export function RunsFilters({ query, options, onChange }: Props) {
  const set = onChange;
  return (
    <search className={styles.filters} aria-label="Find runs">
      <input
        type="search"
        aria-label="Search runs"
        placeholder="Search name, method, domain, tags, notes"
        value={query.q}
        onChange={(e) => set({ q: e.target.value })}
      />
      <Choice
        label="Status"
        value={query.status}
        values={RUN_STATUSES}
        onChange={(status) => set({ status })}
      />
      <Choice
        label="Method"
        value={query.method}
        values={options.method}
        show={methodLabelOf}
        onChange={(method) => set({ method })}
      />
      <Choice
        label="Domain"
        value={query.domain}
        values={options.domain}
        onChange={(domain) => set({ domain })}
      />
      <Choice
        label="Algorithm"
        value={query.algorithm}
        values={options.algorithm}
        show={(a) => a.toUpperCase()}
        onChange={(algorithm) => set({ algorithm })}
      />
      <Choice label="Tag" value={query.tag} values={options.tag} onChange={(tag) => set({ tag })} />
      <label className={styles.control}>
        Sort
        <select
          aria-label="Sort"
          value={query.sort}
          onChange={(e) => set({ sort: e.target.value as RunsQuery["sort"] })}
        >
          {RUN_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {isFiltered(query) ? (
        <button
          type="button"
          onClick={() =>
            onChange({ q: "", status: "", method: "", domain: "", algorithm: "", tag: "", sort: query.sort })
          }
        >
          Clear
        </button>
      ) : null}
    </search>
  );
}
