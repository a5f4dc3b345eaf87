import { z } from "zod";

/** Where a teacher's reasoning trace stands in review. */
export const ANNOTATION_STATUSES = ["pending", "accepted", "edited", "rejected"] as const;
export const AnnotationStatus = z.enum(ANNOTATION_STATUSES);
export type AnnotationStatus = z.infer<typeof AnnotationStatus>;

/** What an annotator can do to a trace; each one is recorded as an AnnotationEvent. */
export const REVIEW_ACTIONS = ["accept", "edit", "reject", "reopen"] as const;
export const ReviewAction = z.enum(REVIEW_ACTIONS);
export type ReviewAction = z.infer<typeof ReviewAction>;

/** There is no login: the annotator's name is who they say they are, and it is what locks and events record. */
export const AnnotatorName = z
  .string()
  .trim()
  .min(1, "enter your name before reviewing")
  .max(64, "a name is at most 64 characters");

export const AnnotationId = z.string().trim().min(1, "an annotation id is required").max(64);

/** The queue's filters; the status filter also chooses what the export contains. */
export const AnnotationFilter = z.object({
  status: z.enum([...ANNOTATION_STATUSES, "all"]).default("pending"),
  domain: z.string().trim().min(1).max(64).optional(),
  teacher: z.string().trim().min(1).max(128).optional(),
});
export type AnnotationFilter = z.infer<typeof AnnotationFilter>;
export type StatusFilter = AnnotationFilter["status"];

/**
 * The reviewed SFT set: an accepted trace goes in as the teacher wrote it, an edited one as corrected; rejected and
 * pending traces never go in, whatever the filter.
 */
export function exportStatuses(status: StatusFilter): ("accepted" | "edited")[] {
  if (status === "accepted" || status === "edited") return [status];
  if (status === "all") return ["accepted", "edited"];
  return [];
}
