import { useQuery } from "@tanstack/react-query";
import type { GamedFilter } from "@/shared/gamedFilter";
import { GAMED_FILTER_PARAMS } from "@/shared/gamedFilter";
import { useTRPC } from "@/trpc/react";

interface Props {
  filter: GamedFilter;
  /** On a run's own page the run (and so its domain) is fixed: only the iteration range is left. */
  fixedRun: boolean;
  setParam: (name: string, value: string) => void;
  count: string;
}

/** Run, domain and iteration range, kept in the URL so that a ranking can be linked to. */
export function GamedFilters({ filter, fixedRun, setParam, count }: Props) {
  const trpc = useTRPC();
  const runs = useQuery({ ...trpc.trajectories.runOptions.queryOptions(), enabled: !fixedRun });
  const facets = useQuery({ ...trpc.trajectories.facets.queryOptions(), enabled: !fixedRun });
  const domains = [
    ...new Set((facets.data ?? []).filter((f) => f.source === "synthetic").map((f) => f.domain)),
  ].sort();
  const iteration = (name: string, label: string, value: number | undefined) => (
    <label className="field">
      {label}
      <input
        type="number"
        aria-label={label}
        min={0}
        style={{ width: 90 }}
        value={value ?? ""}
        onChange={(e) => setParam(name, e.target.value)}
      />
    </label>
  );
  return (
    <div className="filters">
      {fixedRun ? null : (
        <>
          <label className="field">
            Run
            <select
              aria-label="Run"
              value={filter.runId ?? ""}
              onChange={(e) => setParam(GAMED_FILTER_PARAMS.runId, e.target.value)}
            >
              <option value="">all runs</option>
              {(runs.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} ({r.domain})
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            Domain
            <select
              aria-label="Domain"
              value={filter.domain ?? ""}
              onChange={(e) => setParam(GAMED_FILTER_PARAMS.domain, e.target.value)}
            >
              <option value="">all domains</option>
              {domains.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {iteration(GAMED_FILTER_PARAMS.iterationFrom, "From iteration", filter.iterationFrom)}
      {iteration(GAMED_FILTER_PARAMS.iterationTo, "To iteration", filter.iterationTo)}
      <span className="hint" data-testid="gamed-count">
        {count}
      </span>
    </div>
  );
}
