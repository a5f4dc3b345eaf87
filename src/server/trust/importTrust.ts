import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { parseRunConfig } from "@/core/train/config";
import { experienceSettings } from "@/core/train/experienceSettings";
import { readTrustSummary, type TrustSummary, trustSummary } from "@/core/trust/summary";
import { type TrustReport, trustReport } from "@/core/trust/trustReport";
import { config as appConfig } from "@/env";
import type { Db } from "../db";
import { listDomains } from "../domains/domains";
import { createEmbedder } from "../replay/createEmbedder";
import { loadImportedDomain } from "../replay/importedDomain";
import { offlineBuffer } from "../replay/offlineBuffer";

/** The Setting key an imported domain's import-time trust figures are stored under. */
export const importTrustKey = (domain: string) => `trust:import:${domain}`;

/** What the import stores per imported domain: the whole report, its summary, and when it was measured. */
export interface ImportTrust {
  domain: string;
  measuredAt: string;
  summary: TrustSummary;
  report: TrustReport;
}

/** One domain's outcome at import: its figures, or why there are none (too few logs to hold any out). */
export type ImportTrustOutcome =
  | { domain: string; summary: TrustSummary }
  | { domain: string; skipped: string };

/**
 * The trust figures of an imported domain as a DreamGym run would start it: the embedded experience model that
 * learnt the train logs, the default run's experience settings, teacher-forced on the held-out logs and replaying
 * them (core/trust). Depends only on the logs, so it is measured when they change: at import.
 */
export async function measureImportTrust(db: Db, domain: string): Promise<ImportTrustOutcome> {
  const [listed] = await listDomains(db, domain);
  if (listed?.kind !== "imported") return { domain, skipped: "not a domain of logs only" };
  if (!listed.trainable) return { domain, skipped: listed.reason ?? "too few logs" };
  const imported = await loadImportedDomain(db, domain);
  const train = imported.trainSteps();
  const buffer = await offlineBuffer(db, domain, await createEmbedder(appConfig()), train);
  const settings = experienceSettings(parseRunConfig({ domain, method: "dreamgym" }));
  const model = new RetrievalExperienceModel(settings, OfflineMemory.fromTransitions(buffer.transitions()));
  const report = await trustReport(imported, model, buffer, settings);
  const summary = trustSummary(report, "import");
  const stored: ImportTrust = { domain, measuredAt: new Date().toISOString(), summary, report };
  await db.setting.upsert({
    where: { key: importTrustKey(domain) },
    create: { key: importTrustKey(domain), value: stored as object },
    update: { value: stored as object },
  });
  return { domain, summary };
}

/**
 * Every domain an import touched, measured in turn (a file may hold several domains' logs). The logs are stored
 * by then: a measurement that fails is reported with its domain, and does not fail the import.
 */
export async function measureImportedTrust(
  db: Db,
  domains: readonly string[],
): Promise<ImportTrustOutcome[]> {
  const out: ImportTrustOutcome[] = [];
  for (const domain of [...new Set(domains)].sort())
    out.push(
      await measureImportTrust(db, domain).catch((error: Error) => ({
        domain,
        skipped: `the trust figures could not be measured: ${error.message}`,
      })),
    );
  return out;
}

/** The trust figures of an import in a few words, for its job's last progress line. */
export function importTrustLine(outcomes: readonly ImportTrustOutcome[]): string {
  return outcomes
    .filter((o): o is { domain: string; summary: TrustSummary } => "summary" in o)
    .map((o) => `${o.domain}: proxies ${o.summary.trustworthy ? "checked" : "untrustworthy"}`)
    .join(", ");
}

/** The stored import-time figures of a domain, or null before any import measured them. */
export async function readImportTrust(db: Db, domain: string): Promise<ImportTrust | null> {
  const row = await db.setting.findUnique({ where: { key: importTrustKey(domain) } });
  const stored = row?.value as Partial<ImportTrust> | undefined;
  // The summary is what screens read; a stored value without a readable one counts as not measured.
  const summary = readTrustSummary(stored?.summary);
  return stored && summary ? ({ ...stored, summary } as ImportTrust) : null;
}
