/**
 * External runs: a trainer outside DreamGym (verl, TRL, OpenRLHF, SkyRL, AgentGym-RL) plays episodes through the
 * environment server, and they are stored as a run's trajectories like a worker run's, so the same curves,
 * heatmap, explorer, flags and annotation work for them. The run's config is a RunConfig: its domain, method
 * (dreamgym: synthetic episodes by default; real: real ones), experience switches and curriculum.
 */
import { parseRunConfig, type RunConfig } from "@/core/train/config";
import { hasPhase } from "@/core/train/methods";
import { type Db, retryWhenBusy } from "../db";
import { domainProblem } from "../domains/domains";
import { takeWriteLock } from "../retention/transaction";
import { EnvServerError } from "./errors";
import type { EnvMode } from "./protocol";

export const EXTERNAL = "external";

/** Transaction limits for the server's writes: they wait behind a worker's long iteration writes. */
export const TX_LIMITS = { timeout: 60_000, maxWait: 30_000 };

export interface ExternalRun {
  id: string;
  config: RunConfig;
}

/** The mode a run's episodes take when a reset does not say: synthetic for methods with a synthetic phase. */
export function defaultMode(config: RunConfig): EnvMode {
  return hasPhase(config.method, "synthetic") ? "synthetic" : "real";
}

export async function createExternalRun(
  db: Db,
  input: { name?: string | undefined; config?: Record<string, unknown> },
): Promise<ExternalRun> {
  const config = parseRunConfig({ method: "dreamgym", ...input.config }, "external run config");
  // The launch form's rules: a domain that exists, and an imported one only with synthetic-only methods.
  const problem = await domainProblem(db, config);
  if (problem) throw new EnvServerError("VALIDATION_ERROR", problem);
  const run = await db.run.create({
    data: {
      name: input.name ?? (config.name || `external ${config.domain} ${defaultMode(config)}`),
      kind: EXTERNAL,
      method: config.method,
      domain: config.domain,
      // What the trainer optimises with is its business; the config's algorithm is the closest we know.
      algorithm: config.algorithm,
      config: config as object,
      status: "running",
      startedAt: new Date(),
    },
  });
  return { id: run.id, config };
}

export async function loadExternalRun(db: Db, id: string): Promise<ExternalRun> {
  const run = await db.run.findUnique({ where: { id }, select: { id: true, kind: true, config: true } });
  if (!run || run.kind !== EXTERNAL)
    throw new EnvServerError("UNKNOWN_RUN", `No external run with id ${id}: create one with POST /runs`);
  return { id: run.id, config: parseRunConfig(run.config, `config of run ${id}`) };
}

/**
 * The run a reset records into when it names none: one per domain and mode, found by name so that a restarted
 * server keeps adding to the same one.
 */
export async function defaultExternalRun(db: Db, domain: string, mode: EnvMode): Promise<ExternalRun> {
  const name = `external ${domain} ${mode} (default)`;
  const found = await db.run.findFirst({
    where: { kind: EXTERNAL, name, status: "running" },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  if (found) return loadExternalRun(db, found.id);
  return createExternalRun(db, { name, config: { domain, method: mode === "real" ? "real" : "dreamgym" } });
}

/** A trainer's own figures for one policy version (loss, KL, …), kept beside the episodes' in the metric row. */
export async function recordTrainerMetrics(
  db: Db,
  runId: string,
  version: number,
  metrics: Record<string, number>,
): Promise<void> {
  // Long limits: a worker's iteration may hold SQLite's write lock for seconds (the default gives up after 5).
  const write = () =>
    db.$transaction(async (tx) => {
      // The write lock first: a deferred transaction that read before another connection wrote cannot write.
      await takeWriteLock(tx);
      const row = await tx.runMetric.findUnique({
        where: { runId_iteration: { runId, iteration: version } },
      });
      const extra = (row?.extra ?? {}) as Record<string, unknown>;
      const trainer = { ...((extra.trainer as Record<string, number> | undefined) ?? {}), ...metrics };
      // A version with no episodes yet has used what the run has used so far (the counts are cumulative).
      const used = await tx.run.findUnique({
        where: { id: runId },
        select: { realTransitions: true, syntheticTransitions: true },
      });
      await tx.runMetric.upsert({
        where: { runId_iteration: { runId, iteration: version } },
        create: {
          runId,
          iteration: version,
          realTransitions: used?.realTransitions ?? 0,
          syntheticTransitions: used?.syntheticTransitions ?? 0,
          extra: { trainer },
        },
        update: { extra: { ...extra, trainer } },
      });
      await tx.run.updateMany({
        where: { id: runId, iteration: { lt: version } },
        data: { iteration: version },
      });
    }, TX_LIMITS);
  await retryWhenBusy(write);
}

/** The trainer says it is done: the run stops being live. Episodes still open are recorded when they end. */
export async function finishExternalRun(db: Db, runId: string, status: "succeeded" | "failed" = "succeeded") {
  await db.run.update({ where: { id: runId }, data: { status, progress: 1, finishedAt: new Date() } });
}
