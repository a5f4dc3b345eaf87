import { z } from "zod";
import { BACKENDS } from "@/core/backends";
import { DomainName } from "@/core/envs/names";
import { SPLITS } from "@/core/types";

/**
 * Every job's payload, shared by the web (which enqueues) and the worker (which runs). A payload is parsed on
 * both sides, so a job written by an older or newer version fails clearly instead of running half-understood.
 */
export const ImportPayload = z.object({
  /** Path of the JSONL file on the worker's disk (the web saves uploads under the data folder). */
  path: z.string().min(1),
  /** A display name: the uploaded file's name. */
  name: z.string().min(1).max(300),
});

export const CollectPayload = z.object({
  /** A built-in domain or a remote one (checked when the job runs: collectOffline). */
  domain: DomainName,
  policy: z.enum(["expert", "random", "noisy"]),
  episodes: z.number().int().min(1).max(100_000),
  split: z.enum(SPLITS).default("train"),
  epsilon: z.number().min(0).max(1).default(0.3),
  seed: z.number().int().default(0),
  /** First task index to use, so several collections can cover different tasks. */
  offset: z.number().int().min(0).default(0),
});

/** Index the steps LanceDB does not have yet; with rebuild, drop the table and index everything (reindex). */
export const IndexPayload = z.object({ rebuild: z.boolean().default(false) });

/** Have a teacher write reasoning traces for offline steps, queued for annotators' review. */
export const TeacherPayload = z.object({
  domain: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(1_000_000).default(500),
  backend: z.enum(BACKENDS).optional(),
  k: z.number().int().min(0).max(50).default(4),
});

/** Run (or resume) a training run: its config is on the Run row. */
export const TrainPayload = z.object({ runId: z.string().min(1) });

/** Run one experience-model version against a domain's flagged and held-out cases: the version is on the check. */
export const RegressionPayload = z.object({ checkId: z.string().min(1) });

export const JobPayloads = {
  import: ImportPayload,
  collect: CollectPayload,
  index: IndexPayload,
  teacher: TeacherPayload,
  train: TrainPayload,
  regression: RegressionPayload,
} as const;

export type JobType = keyof typeof JobPayloads;

/**
 * Every job type continues where a crashed attempt stopped, so a worker dying under a job costs it no attempt:
 * only its own errors do (queue.ts, reclaimCrashed). A run resumes from its last checkpoint; collection, teacher
 * traces and indexing skip what is already written; an import is one transaction keyed by content, so it either
 * is there or is done again. A new job type must keep that promise.
 */
export type JobPayload<T extends JobType> = z.infer<(typeof JobPayloads)[T]>;

export function parsePayload<T extends JobType>(type: T, payload: unknown): JobPayload<T> {
  const schema = JobPayloads[type];
  if (!schema) throw new Error(`Unknown job type "${type}"`);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(payload)"}: ${i.message}`);
    throw new Error(`Invalid payload for job "${type}": ${problems.join("; ")}`);
  }
  return parsed.data as JobPayload<T>;
}

export function isJobType(type: string): type is JobType {
  return Object.hasOwn(JobPayloads, type);
}
