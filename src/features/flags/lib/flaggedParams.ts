import { FlagCategory } from "@/shared/enums";
import { type FlaggedFilter, flaggedFilterQuery } from "@/shared/flaggedFilter";

/** The flagged list's filters and page, read from the URL so that a filtered list can be linked to. */
export function readFlaggedParams(params: URLSearchParams): { filter: FlaggedFilter; page: number } {
  const runId = params.get("run") || undefined;
  const domain = params.get("domain") || undefined;
  const author = params.get("author") || undefined;
  const parsedCategory = FlagCategory.safeParse(params.get("category"));
  const category = parsedCategory.success ? parsedCategory.data : undefined;
  return {
    filter: {
      ...(runId ? { runId } : {}),
      ...(domain ? { domain } : {}),
      ...(author ? { author } : {}),
      ...(category ? { category } : {}),
    },
    page: Math.max(0, Number(params.get("page") ?? 0) || 0),
  };
}

/** The flagged steps under these filters as JSONL regression cases for the experience model. */
export function flaggedExportHref(filter: FlaggedFilter): string {
  const query = flaggedFilterQuery(filter).toString();
  return `/api/flagged/export${query ? `?${query}` : ""}`;
}
