import { stepParam } from "@/features/shared/lib/stepParam";
import { TRAJECTORY_SOURCES, type TrajectorySource } from "@/shared/enums";

/**
 * The explorer's filters as URL query parameters, so a filtered list (and an episode opened from it) can be
 * linked to. Other pages link here with these names (the curriculum heatmap: run, iteration, task).
 */
export interface ExplorerParams {
  domain?: string;
  source?: TrajectorySource;
  success?: boolean;
  search?: string;
  runId?: string;
  iteration?: number;
  taskId?: string;
  flagged?: boolean;
}

/** URL names of the filters; `page` and `step` are the only other parameters the explorer uses. */
export const FILTER_KEYS = [
  "run",
  "iteration",
  "task",
  "domain",
  "source",
  "success",
  "flagged",
  "q",
] as const;

const isSource = (value: string | null): value is TrajectorySource =>
  value !== null && (TRAJECTORY_SOURCES as readonly string[]).includes(value);

function bool(value: string | null): boolean | undefined {
  return value === "true" ? true : value === "false" ? false : undefined;
}

/** Unknown or malformed values are ignored rather than sent to the server. */
export function readExplorerParams(params: URLSearchParams): ExplorerParams {
  const text = (key: string) => params.get(key)?.trim() || undefined;
  const iteration = Number(params.get("iteration"));
  const source = params.get("source");
  const filter: ExplorerParams = {};
  const domain = text("domain");
  const search = text("q");
  const runId = text("run");
  const taskId = text("task");
  const success = bool(params.get("success"));
  const flagged = bool(params.get("flagged"));
  if (domain) filter.domain = domain;
  if (isSource(source)) filter.source = source;
  if (success !== undefined) filter.success = success;
  if (search) filter.search = search;
  if (runId) filter.runId = runId;
  if (params.get("iteration") !== null && Number.isInteger(iteration) && iteration >= 0) {
    filter.iteration = iteration;
  }
  if (taskId) filter.taskId = taskId;
  if (flagged !== undefined) filter.flagged = flagged;
  return filter;
}

/** Only the filter parameters of a query string (no page, no step), to carry from the list into an episode. */
export function filterQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) kept.set(key, value);
  }
  const query = kept.toString();
  return query ? `?${query}` : "";
}

export function episodeHref(id: string, filter: string, step?: number): string {
  const params = new URLSearchParams(filter.startsWith("?") ? filter.slice(1) : filter);
  if (step !== undefined) params.set("step", stepParam(step));
  const query = params.toString();
  return `/trajectories/${id}${query ? `?${query}` : ""}`;
}
