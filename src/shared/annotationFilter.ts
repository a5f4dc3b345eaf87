import { z } from "zod";
import { ANNOTATION_STATUSES, REVIEWED_STATUSES, type ReviewedStatus } from "./enums";

/** The queue's status tabs: one per status, and "all". */
export const STATUS_FILTERS = [...ANNOTATION_STATUSES, "all"] as const;
export const StatusFilter = z.enum(STATUS_FILTERS);
export type StatusFilter = z.infer<typeof StatusFilter>;

/**
 * The annotation queue's filters. The server validates its input with this schema and the browser keeps the same
 * shape in the URL; the status filter also chooses what the reviewed export contains.
 */
export const AnnotationFilter = z.object({
  status: StatusFilter.default("pending"),
  domain: z.string().trim().min(1).max(64).optional(),
  teacher: z.string().trim().min(1).max(128).optional(),
});
export type AnnotationFilter = z.infer<typeof AnnotationFilter>;

/**
 * The reviewed SFT set under a status filter: an accepted trace goes in as the teacher wrote it, an edited one as
 * corrected; rejected and pending traces never go in, whatever the filter. The server exports by it and the
 * queue's toolbar says why a filter exports nothing by it.
 */
export function exportStatuses(status: StatusFilter): ReviewedStatus[] {
  if (status === "all") return [...REVIEWED_STATUSES];
  return REVIEWED_STATUSES.filter((s) => s === status);
}
