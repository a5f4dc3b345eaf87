import { z } from "zod";
import { FlagCategory } from "./enums";

/**
 * The flagged list's filters. The server validates the list's input and the export's query with this schema; the
 * browser keeps the same filters in the URL (run, domain, author, category) and builds the export link from them.
 */
export const FlaggedFilter = z.object({
  runId: z.string().trim().min(1).max(100).optional(),
  domain: z.string().trim().min(1).max(100).optional(),
  author: z.string().trim().min(1).max(64).optional(),
  category: FlagCategory.optional(),
});
export type FlaggedFilter = z.infer<typeof FlaggedFilter>;

/** The URL names of the filters, on the flagged page and the export route alike. */
export const FLAGGED_FILTER_PARAMS = {
  runId: "run",
  domain: "domain",
  author: "author",
  category: "category",
} as const satisfies Record<keyof FlaggedFilter, string>;

/** The filters as URL parameters ("" and unknown values left out). */
export function flaggedFilterQuery(filter: FlaggedFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(FLAGGED_FILTER_PARAMS) as [keyof FlaggedFilter, string][]) {
    const value = filter[key];
    if (value) params.set(name, value);
  }
  return params;
}

/** The raw filter values of a query string, for FlaggedFilter to validate. */
export function readFlaggedParams(params: URLSearchParams): Record<keyof FlaggedFilter, string | undefined> {
  const read = (name: string) => params.get(name)?.trim() || undefined;
  return {
    runId: read(FLAGGED_FILTER_PARAMS.runId),
    domain: read(FLAGGED_FILTER_PARAMS.domain),
    author: read(FLAGGED_FILTER_PARAMS.author),
    category: read(FLAGGED_FILTER_PARAMS.category),
  };
}
