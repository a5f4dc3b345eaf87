import { methodLabelOf } from "@/core/train/methods";
import { RUN_STATUSES } from "@/shared/enums";

export const RUN_SORTS = ["created", "name", "success", "status"] as const;
export type RunSort = (typeof RUN_SORTS)[number];
export const SORT_LABELS: Record<RunSort, string> = {
  created: "Newest first",
  name: "Name A–Z",
  success: "Final success, best first",
  status: "Status",
};

/** The runs list's search, filters and sort, as the URL keeps them. */
export interface RunsQuery {
  q: string;
  status: string;
  method: string;
  domain: string;
  algorithm: string;
  tag: string;
  sort: RunSort;
}

const FILTERS = ["status", "method", "domain", "algorithm", "tag"] as const;

export function queryOf(params: { get(name: string): string | null }): RunsQuery {
  const sort = params.get("sort") ?? "";
  return {
    q: params.get("q") ?? "",
    status: params.get("status") ?? "",
    method: params.get("method") ?? "",
    domain: params.get("domain") ?? "",
    algorithm: params.get("algorithm") ?? "",
    tag: params.get("tag") ?? "",
    sort: (RUN_SORTS as readonly string[]).includes(sort) ? (sort as RunSort) : "created",
  };
}

/** The query as URL parameters, defaults left out, other parameters (e.g. launched) kept. */
export function queryString(query: RunsQuery, keep: URLSearchParams = new URLSearchParams()): string {
  const out = new URLSearchParams(keep);
  for (const key of ["q", ...FILTERS] as const) {
    const value = query[key].trim();
    if (value) out.set(key, key === "q" ? query.q : value);
    else out.delete(key);
  }
  if (query.sort === "created") out.delete("sort");
  else out.set("sort", query.sort);
  return out.toString();
}

/** What the list searches, filters and sorts by, of a run. */
export interface QueriedRun {
  name: string;
  method: string;
  domain: string;
  algorithm: string;
  status: string;
  tags: readonly string[];
  notes: string | null;
  createdAt: Date;
  /** Real-env success at the end, or an imported domain's proxy; null while there is none. */
  finalSuccess: number | null;
}

/** Every word of the search must occur in the run's name, method (id or label), domain, tags or notes. */
function matches(run: QueriedRun, q: string): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [
    run.name,
    run.method,
    methodLabelOf(run.method),
    run.domain,
    run.algorithm,
    ...run.tags,
    run.notes ?? "",
  ]
    .join("\n")
    .toLowerCase();
  return words.every((w) => text.includes(w));
}

const statusRank = (s: string) => {
  const i = (RUN_STATUSES as readonly string[]).indexOf(s);
  return i < 0 ? RUN_STATUSES.length : i;
};

const COMPARE: Record<RunSort, (a: QueriedRun, b: QueriedRun) => number> = {
  created: (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
  name: (a, b) => a.name.localeCompare(b.name, "en", { numeric: true, sensitivity: "base" }),
  // Runs without a final figure go last, whichever way.
  success: (a, b) =>
    (b.finalSuccess ?? Number.NEGATIVE_INFINITY) - (a.finalSuccess ?? Number.NEGATIVE_INFINITY),
  // Queued and running first (what is happening), then finished, failed, cancelled.
  status: (a, b) => statusRank(a.status) - statusRank(b.status),
};

/** The runs the query selects, in its order (ties: newest first). */
export function applyQuery<T extends QueriedRun>(runs: readonly T[], query: RunsQuery): T[] {
  return runs
    .filter(
      (r) =>
        (!query.status || r.status === query.status) &&
        (!query.method || r.method === query.method) &&
        (!query.domain || r.domain === query.domain) &&
        (!query.algorithm || r.algorithm === query.algorithm) &&
        (!query.tag || r.tags.includes(query.tag)) &&
        matches(r, query.q),
    )
    .sort((a, b) => COMPARE[query.sort](a, b) || COMPARE.created(a, b));
}

/** The values each filter offers: those the runs have, sorted. */
export function filterOptions(runs: readonly QueriedRun[]) {
  const distinct = (values: string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  return {
    method: distinct(runs.map((r) => r.method)),
    domain: distinct(runs.map((r) => r.domain)),
    algorithm: distinct(runs.map((r) => r.algorithm)),
    tag: distinct(runs.flatMap((r) => [...r.tags])),
  };
}

/** "1 run", "3 runs", and "2 of 5 runs" when a search or filter hides some. */
export function runsCount(shown: number, total: number): string {
  const noun = (n: number) => `run${n === 1 ? "" : "s"}`;
  return shown === total ? `${total} ${noun(total)}` : `${shown} of ${total} ${noun(total)}`;
}

export const isFiltered = (q: RunsQuery) => q.q.trim() !== "" || FILTERS.some((f) => q[f] !== "");
