import { z } from "zod";
import type { FidelityReport } from "@/core/experience/fidelity";
import type { Db } from "../db";
import { type RunFidelity, runFidelity } from "../steps/runFidelity";

/** Statuses after which a run's steps no longer change, so its fidelity can be measured once and kept. */
const FINAL_STATUSES = new Set(["succeeded", "failed", "cancelled"]);

/** What Run.fidelity holds: the figures of runFidelity that depend only on the run's steps (not on flags). */
const StoredFidelity = z.object({
  version: z.literal(1),
  syntheticSteps: z.number(),
  withRealAnswer: z.number(),
  differs: z.number(),
  report: z.record(z.string(), z.number().nullable()),
  onPath: z.record(z.string(), z.number().nullable()),
});
type StoredFidelity = z.infer<typeof StoredFidelity>;

/** A report's figures as a plain record: every one of them is a number or null. */
const figures = (report: FidelityReport) => ({ ...report }) as Record<string, number | null>;

function toStored(f: RunFidelity): StoredFidelity {
  return {
    version: 1,
    syntheticSteps: f.syntheticSteps,
    withRealAnswer: f.withRealAnswer,
    differs: f.differs,
    report: figures(f.report),
    onPath: figures(f.onPath),
  };
}

/**
 * Measures a finished run's fidelity over all its synthetic steps, in the form Run.fidelity keeps. Called where a
 * run finishes (trainJob), so the flagged list reads it instead of scoring every step of every run again.
 */
export async function measureStoredFidelity(db: Db, runId: string): Promise<StoredFidelity | null> {
  const fidelity = await runFidelity(db, runId);
  return fidelity ? toStored(fidelity) : null;
}

/**
 * A run's fidelity over all its synthetic steps: read from Run.fidelity when the run has finished and it is
 * there; otherwise measured, and kept for next time once the run has finished (runs that ended before the column
 * existed, external runs, failed and cancelled ones are filled in lazily, once). A running run is measured on
 * every call, since its steps still change. The flag count is always read live: flags come and go after the end.
 */
export async function storedRunFidelity(db: Db, runId: string): Promise<RunFidelity | null> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, name: true, domain: true, status: true, fidelity: true },
  });
  if (!run) return null;
  const final = FINAL_STATUSES.has(run.status);
  const stored = final ? StoredFidelity.safeParse(run.fidelity) : null;
  if (stored?.success) {
    const flagged = await db.step.count({
      where: { flagged: true, trajectory: { runId, source: "synthetic" } },
    });
    return {
      runId: run.id,
      runName: run.name,
      domain: run.domain,
      iteration: null,
      syntheticSteps: stored.data.syntheticSteps,
      withRealAnswer: stored.data.withRealAnswer,
      differs: stored.data.differs,
      report: stored.data.report as unknown as RunFidelity["report"],
      onPath: stored.data.onPath as unknown as RunFidelity["onPath"],
      flagged,
    };
  }
  const measured = await runFidelity(db, runId);
  if (measured && final)
    // Only where the run is still final: a run resumed meanwhile keeps its column empty until it ends again.
    await db.run.updateMany({
      where: { id: runId, status: run.status },
      data: { fidelity: toStored(measured) },
    });
  return measured;
}
