import { z } from "zod";

/**
 * Which synthetic episodes "where the model is gamed" looks at: one run or all of them, narrowed by domain and an
 * iteration range (both ends included). The server validates its input with this schema; the page keeps the same
 * filters in its URL.
 */
export const GamedFilterFields = z.object({
  runId: z.string().trim().min(1).max(100).optional(),
  domain: z.string().trim().min(1).max(100).optional(),
  iterationFrom: z.number().int().min(0).optional(),
  iterationTo: z.number().int().min(0).optional(),
});
export type GamedFilter = z.infer<typeof GamedFilterFields>;

/** A range that starts after it ends selects nothing: say so rather than answer with an empty page. */
export function iterationRangeIssue(filter: GamedFilter): string | null {
  const { iterationFrom: from, iterationTo: to } = filter;
  return from !== undefined && to !== undefined && from > to
    ? `The iteration range starts after it ends (${from} > ${to})`
    : null;
}

/** A filter schema (the fields, or the fields extended) with the range checked. */
export function withIterationRange<T extends z.ZodType<GamedFilter>>(schema: T) {
  return schema.superRefine((filter, ctx) => {
    const issue = iterationRangeIssue(filter);
    if (issue) ctx.addIssue({ code: "custom", message: issue, path: ["iterationTo"] });
  });
}

export const GamedFilter = withIterationRange(GamedFilterFields);

/** The URL names of the filters on the page across runs. */
export const GAMED_FILTER_PARAMS = {
  runId: "run",
  domain: "domain",
  iterationFrom: "from",
  iterationTo: "to",
} as const satisfies Record<keyof GamedFilter, string>;

/** The filters a query string holds (unknown or malformed values are left out). */
export function readGamedParams(params: URLSearchParams): GamedFilter {
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const iteration = (name: string) => {
    const raw = text(name);
    if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
    return Number(raw);
  };
  const filter: GamedFilter = {};
  const runId = text(GAMED_FILTER_PARAMS.runId);
  const domain = text(GAMED_FILTER_PARAMS.domain);
  const from = iteration(GAMED_FILTER_PARAMS.iterationFrom);
  const to = iteration(GAMED_FILTER_PARAMS.iterationTo);
  if (runId) filter.runId = runId;
  if (domain) filter.domain = domain;
  if (from !== undefined) filter.iterationFrom = from;
  if (to !== undefined) filter.iterationTo = to;
  return filter;
}
