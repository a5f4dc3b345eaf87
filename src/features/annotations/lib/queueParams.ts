import { type AnnotationFilter, STATUS_FILTERS, type StatusFilter } from "@/shared/annotationFilter";

export const STATUS_TABS: { value: StatusFilter; label: string }[] = STATUS_FILTERS.map((s) => ({
  value: s,
  label: s[0]!.toUpperCase() + s.slice(1),
}));

/** The queue's filters live in the URL, so a filtered queue can be linked to and survives a reload. */
export function readQueueParams(params: URLSearchParams): AnnotationFilter {
  const status = params.get("status");
  const domain = params.get("domain");
  const teacher = params.get("teacher");
  return {
    status: STATUS_TABS.some((t) => t.value === status) ? (status as StatusFilter) : "pending",
    ...(domain ? { domain } : {}),
    ...(teacher ? { teacher } : {}),
  };
}

export function queueQuery(filter: AnnotationFilter): string {
  const params = new URLSearchParams();
  if (filter.status !== "pending") params.set("status", filter.status);
  if (filter.domain) params.set("domain", filter.domain);
  if (filter.teacher) params.set("teacher", filter.teacher);
  return params.toString();
}

/** The reviewed SFT set under the same filters (the route decides which statuses that means). */
export function exportHref(filter: AnnotationFilter): string {
  const params = new URLSearchParams({ status: filter.status });
  if (filter.domain) params.set("domain", filter.domain);
  if (filter.teacher) params.set("teacher", filter.teacher);
  return `/api/annotations/export?${params}`;
}
