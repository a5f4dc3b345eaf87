import { readTrustReport, type StoredTrustReport } from "@/core/trust/stored";
import { readTrustSummary, type TrustSummary } from "@/core/trust/summary";
import type { Db } from "../db";
import { readImportTrust } from "./importTrust";

/** A trust report and where it was measured: an evaluation's iteration, the final one, or the import. */
export interface MeasuredTrust {
  at: TrustSummary["at"];
  report: StoredTrustReport;
}

export interface RunTrustView {
  domain: string;
  /** The latest verdict (Run.trust), what the runs list shows. */
  summary: TrustSummary | null;
  /** The latest evaluation's whole report: the final one when the run has finished, else the last stored. */
  latest: MeasuredTrust | null;
  /** The untrained policy's synthetic success, which the verdict compares with the logs' weak play. */
  untrainedSyntheticSuccess: number | null;
  /** The domain's figures measured at import (the default run's model), for a run not yet evaluated. */
  atImport: (MeasuredTrust & { measuredAt: string }) | null;
}

const proxyTrustOf = (evaluation: unknown): unknown =>
  (evaluation as { proxy?: { trust?: unknown } } | undefined)?.proxy?.trust;

/**
 * A run's trust figures for its page, or null when there is no such run. A run in a domain with a real
 * environment has none (every field null): real success is its check.
 */
export async function runTrustView(db: Db, runId: string): Promise<RunTrustView | null> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { domain: true, trust: true, result: true },
  });
  if (!run) return null;
  const result = (run.result ?? {}) as { final?: unknown; untrained?: { successRate?: number } };
  const atImport = await readImportTrust(db, run.domain);
  const importReport = atImport ? readTrustReport(atImport.report) : null;
  return {
    domain: run.domain,
    summary: readTrustSummary(run.trust),
    latest: await latestReport(db, runId, result.final),
    untrainedSyntheticSuccess:
      proxyTrustOf(result.untrained) !== undefined ? (result.untrained?.successRate ?? null) : null,
    atImport:
      atImport && importReport
        ? { at: "import", report: importReport, measuredAt: atImport.measuredAt }
        : null,
  };
}

async function latestReport(db: Db, runId: string, final: unknown): Promise<MeasuredTrust | null> {
  const finalReport = readTrustReport(proxyTrustOf(final));
  if (finalReport) return { at: "final", report: finalReport };
  // Evaluations are the metric rows with a synthetic test figure; the latest with a report is the one shown.
  const rows = await db.runMetric.findMany({
    where: { runId, simSuccess: { not: null } },
    orderBy: { iteration: "desc" },
    select: { iteration: true, extra: true },
    take: 20,
  });
  for (const row of rows) {
    const report = readTrustReport(proxyTrustOf(row.extra));
    if (report) return { at: row.iteration, report };
  }
  return null;
}
