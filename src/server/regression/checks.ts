import type { Db } from "../db";
import { type StoredCheckModel, StoredCheckModel as StoredModel, versionLabel } from "./version";

export interface CheckSummary {
  id: string;
  label: string;
  domain: string;
  heldOut: number;
  backend: "embedded" | "openai";
  status: string;
  createdAt: Date;
  finishedAt: Date | null;
  createdBy: string | null;
  fidelity: unknown;
  /** The worker's progress on it while it runs (the job's row). */
  progress: number | null;
  message: string | null;
  error: string | null;
}

/** Checks kept on the page: the newest this many, any domain. */
export const CHECKS_SHOWN = 50;

function modelOf(value: unknown): StoredCheckModel | null {
  const parsed = StoredModel.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The regression checks, newest first, each with its job's progress, optionally of one domain. */
export async function listChecks(db: Db, domain?: string): Promise<CheckSummary[]> {
  const checks = await db.regressionCheck.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: CHECKS_SHOWN,
  });
  const jobIds = checks.flatMap((c) => (c.jobId ? [c.jobId] : []));
  const jobs = new Map(
    (
      await db.job.findMany({
        where: { id: { in: jobIds } },
        select: { id: true, progress: true, message: true, error: true },
      })
    ).map((j) => [j.id, j]),
  );
  return checks.flatMap((c) => {
    const model = modelOf(c.model);
    if (!model || (domain && model.scope.domain !== domain)) return [];
    const job = c.jobId ? jobs.get(c.jobId) : undefined;
    return [
      {
        id: c.id,
        label: c.label,
        domain: model.scope.domain,
        heldOut: model.scope.heldOut,
        backend: model.version.backend,
        status: c.status,
        createdAt: c.createdAt,
        finishedAt: c.finishedAt,
        createdBy: c.createdBy,
        fidelity: c.fidelity,
        progress: job?.progress ?? null,
        message: job?.message ?? null,
        error: job?.error ?? null,
      },
    ];
  });
}

export { modelOf, versionLabel };
