import { z } from "zod";
import { REAL_ENV_SOURCES, TRAJECTORY_SOURCES } from "@/core/types";

/*
 * Every status, action, source and purpose the database stores as a plain string (SQLite has no enums), listed
 * once. The server validates with the zod enums, the browser builds its filters and badges from the arrays, and
 * the types follow from both, so adding a value is one edit here and the compiler finds every place to update.
 */

/** A queued job's life: claimed, then finished one way or another (a failure may go back to queued to retry). */
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

/** A training run lives the life of its train job: the job's handler writes the run's status as it goes. */
export const RUN_STATUSES = JOB_STATUSES;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

/** Statuses of a job or run that is not finished yet: it can still be cancelled, and pages keep polling it. */
export const ACTIVE_STATUSES = ["queued", "running"] as const satisfies readonly JobStatus[];

export function isActiveStatus(status: string): boolean {
  return (ACTIVE_STATUSES as readonly string[]).includes(status);
}

/** A run that stopped short of the end: it can be resumed from its last finished iteration. */
export const RESUMABLE_STATUSES = ["failed", "cancelled"] as const satisfies readonly RunStatus[];

export function isResumableStatus(status: string): boolean {
  return (RESUMABLE_STATUSES as readonly string[]).includes(status);
}

/** Where a teacher's reasoning trace stands in review. */
export const ANNOTATION_STATUSES = ["pending", "accepted", "edited", "rejected"] as const;
export const AnnotationStatus = z.enum(ANNOTATION_STATUSES);
export type AnnotationStatus = z.infer<typeof AnnotationStatus>;

/** The reviewed traces, the ones an SFT export may contain (an edited one as corrected). */
export const REVIEWED_STATUSES = ["accepted", "edited"] as const satisfies readonly AnnotationStatus[];
export type ReviewedStatus = (typeof REVIEWED_STATUSES)[number];

/** What an annotator can do to a trace; each one is recorded as an AnnotationEvent's action. */
export const REVIEW_ACTIONS = ["accept", "edit", "reject", "reopen"] as const;
export const ReviewAction = z.enum(REVIEW_ACTIONS);
export type ReviewAction = z.infer<typeof ReviewAction>;

/** Where a trajectory came from; core owns the list because core's transitions carry it. */
export { REAL_ENV_SOURCES, TRAJECTORY_SOURCES };
export const TrajectorySource = z.enum(TRAJECTORY_SOURCES);
export type TrajectorySource = z.infer<typeof TrajectorySource>;

/**
 * Why a trajectory was recorded: data for the replay buffer and the experience model, a run's training rollouts,
 * or a run's evaluation episodes.
 */
export const TRAJECTORY_PURPOSES = ["data", "train", "eval"] as const;
export const TrajectoryPurpose = z.enum(TRAJECTORY_PURPOSES);
export type TrajectoryPurpose = z.infer<typeof TrajectoryPurpose>;

/** Why a researcher flagged a synthetic step: what the experience model got wrong. */
export const FLAG_CATEGORIES = ["hallucinated-element", "wrong-reward", "wrong-done", "other"] as const;
export const FlagCategory = z.enum(FLAG_CATEGORIES);
export type FlagCategory = z.infer<typeof FlagCategory>;

/** How a flag category reads in the UI and in the flagged-step export. */
export const FLAG_CATEGORY_LABELS: Record<FlagCategory, string> = {
  "hallucinated-element": "hallucinated element",
  "wrong-reward": "wrong reward",
  "wrong-done": "wrong done",
  other: "other",
};
